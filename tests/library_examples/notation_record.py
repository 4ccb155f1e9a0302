# Recording a game into a file: a new record entered move by move and saved, then mended.
import datetime
import tempfile
from pathlib import Path

import notation

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "club night.ugn"
    kept = notation.RecordFile.open(
        path, game="cave", players=["Mina", "Igor"], tags={"Event": "club night"},
        date=datetime.date(2026, 12, 4),
    )
    for move in ["b1", "b5", "b1-b2"]:
        kept.editor.play(move)      # each edit is journaled beside the file at once
    kept.editor.set_comment("the usual plan")
    try:
        kept.editor.play("b2-b4")
    except notation.EditError as exc:
        print("refused:", exc)      # refused: b2-b4: ...; the record is as it was
    print("saved as record", kept.save())
    kept.close()

    again = notation.RecordFile.open(path, 1)        # record 1 of the file, to mend
    mended = again.editor.mend(again.editor.record.moves[1], "c5")
    print("later moves kept:", mended.kept)
    again.save()
    again.close()
    print(path.read_text(encoding="utf-8"), end="")
