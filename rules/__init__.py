"""shapecheck's lint rules, one module per rule; the engine finds every `Rule` subclass here by itself."""
