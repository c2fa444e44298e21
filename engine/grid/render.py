"""The board as a 512 x 512 PNG for vision prompts (Pillow, imported only when drawn)."""

from __future__ import annotations

import io

SIZE = 512
COLOURS = {
    "tictactoe": ((200, 40, 40), (40, 80, 200)),
    "connect4": ((210, 30, 30), (235, 200, 20)),
    "gomoku": ((20, 20, 20), (250, 250, 250)),
}
BACKGROUND = {"tictactoe": (250, 250, 245), "connect4": (40, 90, 200), "gomoku": (225, 185, 120)}


def _font(size: int):
    # start-up time: Pillow only when a board is drawn
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType sizes
        return ImageFont.load_default()


def board_png(game: str, board: tuple[str, ...], symbols: tuple[str, str], empty: str) -> bytes:
    """A PNG of ``board`` (rows of '.XO'): numbered edges, stones with their letters, a legend below."""
    # start-up time: Pillow only when a board is drawn
    from PIL import Image, ImageDraw

    rows, cols = len(board), len(board[0])
    img = Image.new("RGB", (SIZE, SIZE), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    margin, legend = 34, 48
    cell = min((SIZE - margin - 8) / cols, (SIZE - margin - legend - 8) / rows)
    x0, y0 = margin, margin
    label = _font(max(10, int(min(cell * 0.45, 18))))
    draw.rectangle([x0, y0, x0 + cell * cols, y0 + cell * rows], fill=BACKGROUND[game])
    for c in range(cols):
        draw.text((x0 + (c + 0.5) * cell, y0 / 2), str(c + 1), fill=(0, 0, 0), font=label, anchor="mm")
    for r in range(rows):
        draw.text((x0 / 2, y0 + (r + 0.5) * cell), str(r + 1), fill=(0, 0, 0), font=label, anchor="mm")
    for i in range(rows + 1):
        draw.line([x0, y0 + i * cell, x0 + cell * cols, y0 + i * cell], fill=(60, 60, 60), width=1)
    for i in range(cols + 1):
        draw.line([x0 + i * cell, y0, x0 + i * cell, y0 + cell * rows], fill=(60, 60, 60), width=1)
    stone_font = _font(max(8, int(cell * 0.45)))

    def stone(cx: float, cy: float, radius: float, seat: int) -> None:
        fill = COLOURS[game][seat]
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=fill, outline=(0, 0, 0))
        ink = (255, 255, 255) if sum(fill) < 380 else (0, 0, 0)
        draw.text((cx, cy), symbols[seat], fill=ink, font=stone_font, anchor="mm")

    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            if ch in "XO":
                stone(cx, cy, cell * 0.4, "XO".index(ch))
            elif game == "connect4":
                draw.ellipse(
                    [cx - cell * 0.4, cy - cell * 0.4, cx + cell * 0.4, cy + cell * 0.4],
                    fill=(255, 255, 255),
                    outline=(0, 0, 0),
                )
    ly = SIZE - legend / 2
    legend_font = _font(18)
    for k, text in enumerate((symbols[0], symbols[1], empty)):
        lx = 80 + k * 150
        if k < 2:
            draw.ellipse([lx - 14, ly - 14, lx + 14, ly + 14], fill=COLOURS[game][k], outline=(0, 0, 0))
        else:
            draw.rectangle([lx - 14, ly - 14, lx + 14, ly + 14], fill=BACKGROUND[game], outline=(0, 0, 0))
        draw.text((lx + 24, ly), f"= {text}", fill=(0, 0, 0), font=legend_font, anchor="lm")
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
