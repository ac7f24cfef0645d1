"""`shapecheck server`: the Language Server editors talk to over stdio.

`documents` lints open documents with the settings `shapecheck lint` would use for their paths; `protocol` turns
findings into LSP diagnostics and code actions; `app` is the pygls server that wires them to the editor. Only `app`
and `protocol` need pygls (the `server` extra); nothing here imports torch.
"""
