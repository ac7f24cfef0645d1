INTENTS = {
    "greeting": ["hi there", "hello", "good morning", "hey, how are you", "is anyone there"],
    "goodbye": ["bye", "see you later", "goodbye and thanks", "talk to you soon"],
    "hours": ["when are you open", "what are your opening hours", "are you open on sunday", "closing time today"],
    "payments": ["do you take credit cards", "can I pay with cash", "which payment methods are accepted"],
    "delivery": ["how long does shipping take", "do you deliver to my city", "when will my order arrive"],
}
