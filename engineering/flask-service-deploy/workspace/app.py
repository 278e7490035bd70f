"""The prediction service (a first version, run with Flask's development server)."""

import json
import pickle

from flask import Flask, jsonify, request

with open("model.pkl", "rb") as handle:
    MODEL = pickle.load(handle)

app = Flask(__name__)


@app.route("/predict", methods=["POST"])
def predict():
    payload = json.loads(request.data)
    predictions = MODEL.predict(payload["rows"])
    print("predicted", len(predictions), "rows")
    return jsonify(predictions=[str(label) for label in predictions])


if __name__ == "__main__":
    app.run(port=5000)
