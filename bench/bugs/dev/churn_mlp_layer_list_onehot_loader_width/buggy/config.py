NUMERIC_COLUMNS = ["tenure", "monthly_charges", "total_charges", "support_calls"]
CATEGORICAL_COLUMNS = {"contract": ["month", "one_year", "two_year"], "payment": ["card", "bank", "check"]}

MODEL_CFG = {
    "in_features": len(NUMERIC_COLUMNS) + len(CATEGORICAL_COLUMNS),
    "layers": [
        {"units": 64, "dropout": 0.1},
        {"units": 32, "dropout": 0.1},
        {"units": 16, "dropout": 0.0},
    ],
    "out_features": 1,
}

BATCH_SIZE = 16
EPOCHS = 2
