"""BiLSTM sequence tagger for slot/entity labelling."""
