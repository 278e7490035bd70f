"""Kaggle's data size of every MLE-bench competition, in bytes: what ``prepare --dry-run`` shows
when Kaggle's file list cannot answer (no credentials), and for ids not yet in this release.

Lite: rough sizes of each competition's download; their total is the published one (about
158 GB for the 22, 116 GB of it siim-isic-melanoma-classification). Medium and High: Kaggle's own
metadata as published with the MLE-Dojo collection (``../docs/mlebench.md``, "Disk per split"),
``None`` where it gives none (six competitions). These are estimates: ``--dry-run`` marks them
with ``~`` and says where exact sizes come from.
"""

from __future__ import annotations

GB = 1_000_000_000
MB = 1_000_000

APPROXIMATE_LITE_BYTES: dict[str, int] = {
    "aerial-cactus-identification": int(0.025 * GB),
    "aptos2019-blindness-detection": int(10.2 * GB),
    "denoising-dirty-documents": int(0.06 * GB),
    "detecting-insults-in-social-commentary": int(0.003 * GB),
    "dog-breed-identification": int(0.75 * GB),
    "dogs-vs-cats-redux-kernels-edition": int(0.85 * GB),
    "histopathologic-cancer-detection": int(6.6 * GB),
    "jigsaw-toxic-comment-classification-challenge": int(0.1 * GB),
    "leaf-classification": int(0.06 * GB),
    "mlsp-2013-birds": int(0.6 * GB),
    "new-york-city-taxi-fare-prediction": int(5.7 * GB),
    "nomad2018-predict-transparent-conductors": int(0.005 * GB),
    "plant-pathology-2020-fgvc7": int(0.8 * GB),
    "random-acts-of-pizza": int(0.01 * GB),
    "ranzcr-clip-catheter-line-classification": int(12.3 * GB),
    "siim-isic-melanoma-classification": int(116 * GB),
    "spooky-author-identification": int(0.003 * GB),
    "tabular-playground-series-dec-2021": int(0.8 * GB),
    "tabular-playground-series-may-2022": int(0.35 * GB),
    "text-normalization-challenge-english-language": int(0.9 * GB),
    "text-normalization-challenge-russian-language": int(1.5 * GB),
    "the-icml-2013-whale-challenge-right-whale-redux": int(0.4 * GB),
}
APPROXIMATE_MEDIUM_HIGH_BYTES: dict[str, int | None] = {
    # medium
    "AI4Code": int(2.16 * GB),
    "alaska2-image-steganalysis": int(32.27 * GB),
    "billion-word-imputation": int(1.7 * GB),
    "cassava-leaf-disease-classification": int(6.19 * GB),
    "cdiscount-image-classification-challenge": int(78.12 * GB),
    "chaii-hindi-and-tamil-question-answering": int(31.8 * MB),
    "champs-scalar-coupling": int(1.22 * GB),
    "facebook-recruiting-iii-keyword-extraction": int(3.19 * GB),
    "freesound-audio-tagging-2019": int(26.15 * GB),
    "google-quest-challenge": int(14.85 * MB),
    "h-and-m-personalized-fashion-recommendations": int(34.56 * GB),
    "herbarium-2020-fgvc7": int(63.16 * GB),
    "herbarium-2021-fgvc8": int(161.9 * GB),
    "herbarium-2022-fgvc9": int(163.17 * GB),
    "hotel-id-2021-fgvc8": int(26.65 * GB),
    "hubmap-kidney-segmentation": int(32.97 * GB),
    "icecube-neutrinos-in-deep-ice": int(117.18 * GB),
    "imet-2020-fgvc7": int(29.46 * GB),
    "inaturalist-2019-fgvc6": int(87.76 * GB),
    "iwildcam-2020-fgvc7": int(118.59 * GB),
    "jigsaw-unintended-bias-in-toxicity-classification": int(2.38 * GB),
    "kuzushiji-recognition": int(4.51 * GB),
    "learning-agency-lab-automated-essay-scoring-2": int(36.2 * MB),
    "lmsys-chatbot-arena": int(184 * MB),
    "multi-modal-gesture-recognition": int(23.23 * GB),
    "osic-pulmonary-fibrosis-progression": int(23.99 * GB),
    "petfinder-pawpularity-score": int(1.04 * GB),
    "plant-pathology-2021-fgvc8": int(16.1 * GB),
    "seti-breakthrough-listen": int(156.02 * GB),
    "statoil-iceberg-classifier-challenge": int(302 * MB),
    "tensorflow-speech-recognition-challenge": None,
    "tensorflow2-question-answering": None,
    "tgs-salt-identification-challenge": int(483 * MB),
    "tweet-sentiment-extraction": int(3.86 * MB),
    "us-patent-phrase-to-phrase-matching": int(2.14 * MB),
    "uw-madison-gi-tract-image-segmentation": int(2.47 * GB),
    "ventilator-pressure-prediction": int(699 * MB),
    "whale-categorization-playground": int(727 * MB),
    # high
    "3d-object-detection-for-autonomous-vehicles": None,
    "bms-molecular-translation": int(8.87 * GB),
    "google-research-identify-contrails-reduce-global-warming": None,
    "hms-harmful-brain-activity-classification": int(26.4 * GB),
    "iwildcam-2019-fgvc6": int(46.68 * GB),
    "nfl-player-contact-detection": int(5.01 * GB),
    "predict-volcanic-eruptions-ingv-oe": int(31.25 * GB),
    "rsna-2022-cervical-spine-fracture-detection": None,
    "rsna-breast-cancer-detection": None,
    "rsna-miccai-brain-tumor-radiogenomic-classification": int(136.85 * GB),
    "siim-covid19-detection": int(128.51 * GB),
    "smartphone-decimeter-2022": int(22.9 * GB),
    "stanford-covid-vaccine": int(2.68 * GB),
    "vesuvius-challenge-ink-detection": int(37.02 * GB),
    "vinbigdata-chest-xray-abnormalities-detection": int(205.96 * GB),
}
APPROXIMATE_BYTES: dict[str, int | None] = {
    **APPROXIMATE_LITE_BYTES,
    **APPROXIMATE_MEDIUM_HIGH_BYTES,
}
