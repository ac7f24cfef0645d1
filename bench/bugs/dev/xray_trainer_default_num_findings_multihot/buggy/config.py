FINDINGS = ["Atelectasis", "Cardiomegaly", "Effusion", "Infiltration", "Mass", "Nodule", "Pneumonia", "Pneumothorax"]
IMAGE_SIZE = 32
BATCH_SIZE = 4
EPOCHS = 1
LR = 3e-4
