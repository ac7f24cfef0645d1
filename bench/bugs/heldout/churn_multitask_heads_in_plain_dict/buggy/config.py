TASKS = {"churn": 2, "plan": 4, "ltv_bucket": 5}
FEATURES = 18
SHARED = [32, 32]
BATCH = 16
EPOCHS = 2
