"""The objects-and-calls floor: which object an expression holds (a layer, a model, an optimizer, a loader) and what a
call of the project's own functions and methods gives, read by the shape and training-loop analyses above it."""
