DEFAULT_CONFIG = dict(
    run_name="qm-small",
    seed=123,
    n_species=4,
    embed_dim=16,
    hidden=32,
    n_atoms=6,
    n_train=64,
    batch_size=8,
    max_epochs=2,
    learning_rate=5e-3,
    loss_coeffs={"total_energy": 1.0, "dipole": 0.25},
    log_batch_freq=4,
)
