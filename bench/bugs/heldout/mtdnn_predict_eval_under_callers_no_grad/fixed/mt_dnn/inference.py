def eval_model(model, data):
    predictions, golds, scores, ids = [], [], [], []
    for idx, (batch_meta, batch_data) in enumerate(data):
        score, pred, gold = model.predict(batch_meta, batch_data)
        predictions.extend(pred)
        golds.extend(gold)
        scores.extend(score)
        ids.extend(batch_meta["uids"])
    acc = sum(p == g for p, g in zip(predictions, golds)) / len(golds)
    return {"ACC": 100.0 * acc}, predictions, scores, golds, ids
