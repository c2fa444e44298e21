// Test stand-in: same shape as the seed's createPrompt, test wording.
async function createPrompt(game, promptType, currentPlayer, first, second, previousMove) {
    let prompt = "";
    let imageData = "";
    prompt += game.explainGame();
    if (promptType === "list") {
        prompt += game.listBoard();
        currentStatus = prompt.substring(prompt.lastIndexOf("Board now: \n") + 12);
    }
    else if (promptType === "illustration") {
        prompt += game.drawBoard();
        currentStatus = prompt.substring(prompt.lastIndexOf("Board now: \n") + 11);
    }
    else if (promptType === "image") {
        prompt += game.imagePrompt();
        prompt += " See the image. \n";
    }
    if (currentPlayer === 1) {
        prompt += " You move first. Your move? \n";
    }
    else {
        prompt += " You move second. Your move? \n";
    }
    prompt += game.formatNextMove();
    prompt += game.invalidMoveWarning();
    if (previousMove !== undefined) {
        if (previousMove.getOutcome() !== "Valid") {
            prompt += " Last answer '" + previousMove.getResponse() + "' was refused: '" + previousMove.getOutcome() + "'. Try again. \n";
        }
    }
    prompt += " Bad answers so far: " + playerInvalidMoves + ". " + (game.getMaxInvalidMoves() - playerInvalidMoves + 1) + " more lose.";
    prompt = prompt.replaceAll("\n", "\\n");
    prompt = prompt.replaceAll("\"", "\\\"");
    return [prompt, imageData];
}
