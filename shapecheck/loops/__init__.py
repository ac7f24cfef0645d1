"""The training-loop floor: what a backward pass, an optimizer step, a gradient reset or a train/eval switch looks
like, and where each sits in a file (`training_loop.TrainingLoop`, read by the SC2xx rules)."""
