// Test stand-in: same shape as the seed's game file, test wording.
export class GameC4 {
    static explainGame() {
        return "C4 rules on a 6 by 7 board. \n";
    }
    static formatNextMove() {
        return " Answer as JSON {'row': R, 'column': C}. \n";
    }
    static systemPrompt() {
        return this.formatNextMove();
    }
    static invalidMoveWarning() {
        return " More than " + this.getMaxInvalidMoves() + " bad answers lose. \n";
    }
    static promptVersion() {
        return "2000-01-02";
    }
    static getMaxMoves() {
        return 80;
    }
    static getMaxInvalidMoves() {
        return 7;
    }
    static listBoard() {
        let s = "";
        s += " Cells are listed as row,column. \n";
        s += " Board now: \n";
        s += " First: ";
        s += (a.length ? a.join("; ") : "None") + " \n";
        s += " Second: ";
        s += (b.length ? b.join("; ") : "None") + " \n";
        return s;
    }
    static drawBoard() {
        let s = "";
        s += " A drawing of the 6 by 7 board follows. \n";
        s += " Board now: \n";
        for (let i = 0; i < 6; i++) {
            s += (x === "") ? "e" : x;
            s += " \n";
        }
        return s;
    }
    static imagePrompt() {
        return " A picture of the board is attached. \n";
    }
}
