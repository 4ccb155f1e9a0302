# Bots: an attacker plays a random bot three times at chess; the games go to stdout.
import random

import chess
import chess.pgn


def attacker(board: chess.Board, rng: random.Random) -> chess.Move:
    captures = [move for move in board.legal_moves if board.is_capture(move)]
    return rng.choice(captures or list(board.legal_moves))


def random_bot(board: chess.Board, rng: random.Random) -> chess.Move:
    return rng.choice(list(board.legal_moves))


bots = {chess.WHITE: attacker, chess.BLACK: random_bot}
rng = random.Random(2024)  # one seed replays all three games
for _ in range(3):
    board = chess.Board()
    while not board.is_game_over():
        board.push(bots[board.turn](board, rng))
    game = chess.pgn.Game.from_board(board)
    game.headers["White"], game.headers["Black"] = "attacker", "random_bot"
    print(game, end="\n\n")
