"""Record -> annotate -> check: turn what a run actually did into jaxtyping annotations.

`shapecheck record -- python train.py` (or `pytest --shapecheck-record=pkg`) records the shapes, dtypes and devices
that cross each function boundary (`recorder`), into a JSON file merged across runs (`store`). `shapecheck annotate`
infers symbols from those sizes (`infer`) and writes the annotations with libcst (`annotate`), so the same
annotation is then checked by the linter, by `@shapecheck.check` and under torch.compile.

Nothing here imports torch at import time: the recorder looks torch up in `sys.modules` when it meets a value.
"""
