"""Kaggle's download of smartphone-decimeter-2022: one folder per trip, drive by drive.

``smartphone-decimeter-2022.zip`` holds ``metadata/`` (two JSON bit maps and
``constellation_type_mapping.csv``), Kaggle's ``sample_submission.csv`` (for its own test
trips), ``train/<drive>/<phone>/`` and ``test/<drive>/<phone>/``. A train trip has
``device_gnss.csv`` (one row per signal and epoch, with the WLS baseline position in ECEF),
``device_imu.csv``, ``ground_truth.csv`` (``MessageType, Provider, LatitudeDegrees,
LongitudeDegrees, AltitudeMeters, SpeedMps, AccuracyMeters, BearingDegrees, UnixTimeMillis``)
and ``supplemental/`` with ``gnss_log.txt``, ``gnss_rinex.<yy>o`` and ``span_log.nmea`` (the
reference receiver's GGA and RMC sentences, written with pynmea2); a Kaggle test trip has no
ground truth and no ``span_log.nmea``. Drives are named ``YYYY-MM-DD-US-<city>-<n>``; two dates
have two drives, so a date (MLE-bench's split unit) can hold several. Each drive is one car:
its phones share the route, each with its own millisecond offset. The WLS baseline is the true
position plus a few metres of noise, so the baseline predicts the truth to metres.
"""

from __future__ import annotations

import json
import math
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.neighbors import KNeighborsRegressor

COMPETITION = "smartphone-decimeter-2022"
PROBE_BOUND = "median"
"""The metadata probe must stay above the board's median error: the sample submission's
placeholder lies some 3,000 km from every trip, so the midpoint between it and a perfect score
says nothing (a guess of the right city already passes it)."""

CITIES = {
    "MTV": (37.42, -122.08),
    "SJC": (37.33, -121.89),
    "SVL": (37.37, -122.03),
    "LAX": (34.05, -118.25),
}
PHONES = ("GooglePixel4", "GooglePixel4XL", "GooglePixel5", "SamsungGalaxyS20Ultra", "XiaomiMi8")
DATES = (
    "2020-05-15", "2020-05-21", "2020-06-04", "2020-07-08", "2020-08-03", "2020-08-13",
    "2020-09-04", "2020-12-10", "2021-01-05", "2021-03-16", "2021-04-22", "2021-04-29",
)  # fmt: skip
TWO_DRIVE_DATES = ("2020-05-15", "2021-04-29")
EPOCHS = (14, 22)
SIGNALS_PER_EPOCH = 3
WGS84_A, WGS84_E2 = 6378137.0, 6.69437999014e-3

GNSS_COLUMNS = (
    "MessageType", "utcTimeMillis", "TimeNanos", "LeapSecond", "FullBiasNanos", "BiasNanos",
    "BiasUncertaintyNanos", "DriftNanosPerSecond", "DriftUncertaintyNanosPerSecond",
    "HardwareClockDiscontinuityCount", "Svid", "TimeOffsetNanos", "State", "ReceivedSvTimeNanos",
    "ReceivedSvTimeUncertaintyNanos", "Cn0DbHz", "PseudorangeRateMetersPerSecond",
    "PseudorangeRateUncertaintyMetersPerSecond", "AccumulatedDeltaRangeState",
    "AccumulatedDeltaRangeMeters", "AccumulatedDeltaRangeUncertaintyMeters", "CarrierFrequencyHz",
    "MultipathIndicator", "ConstellationType", "CodeType", "ChipsetElapsedRealtimeNanos",
    "ArrivalTimeNanosSinceGpsEpoch", "RawPseudorangeMeters", "RawPseudorangeUncertaintyMeters",
    "SignalType", "ReceivedSvTimeNanosSinceGpsEpoch", "SvPositionXEcefMeters",
    "SvPositionYEcefMeters", "SvPositionZEcefMeters", "SvElevationDegrees", "SvAzimuthDegrees",
    "SvVelocityXEcefMetersPerSecond", "SvVelocityYEcefMetersPerSecond",
    "SvVelocityZEcefMetersPerSecond", "SvClockBiasMeters", "SvClockDriftMetersPerSecond",
    "IsrbMeters", "IonosphericDelayMeters", "TroposphericDelayMeters", "WlsPositionXEcefMeters",
    "WlsPositionYEcefMeters", "WlsPositionZEcefMeters",
)  # fmt: skip
TRUTH_COLUMNS = (
    "MessageType", "Provider", "LatitudeDegrees", "LongitudeDegrees", "AltitudeMeters",
    "SpeedMps", "AccuracyMeters", "BearingDegrees", "UnixTimeMillis",
)  # fmt: skip


def drives() -> list[tuple[str, str]]:
    """Every (drive name, city) of the download's train part, in date order."""
    named = []
    for index, date in enumerate(DATES):
        city = list(CITIES)[index % len(CITIES)]
        for number in (1, 2) if date in TWO_DRIVE_DATES else (1,):
            named.append((f"{date}-US-{city}-{number}", city))
    return named


def _route(rng: np.random.Generator, city: str, start_ms: int) -> pd.DataFrame:
    """One drive's true positions, once a second along a straight road with some wobble."""
    epochs = int(rng.integers(*EPOCHS))
    lat0, lon0 = CITIES[city]
    lat0 += rng.uniform(-0.03, 0.03)
    lon0 += rng.uniform(-0.03, 0.03)
    heading, speed = rng.uniform(0, 2 * math.pi), rng.uniform(12, 30)
    steps = np.arange(epochs, dtype=float)
    north = np.cumsum(speed * np.cos(heading + 0.05 * np.sin(steps))) - speed
    east = np.cumsum(speed * np.sin(heading + 0.05 * np.sin(steps))) - speed
    lat = lat0 + np.degrees(north / 6_371_000.0)
    lon = lon0 + np.degrees(east / (6_371_000.0 * math.cos(math.radians(lat0))))
    return pd.DataFrame(
        {
            "seconds": steps,
            "LatitudeDegrees": np.round(lat, 9),
            "LongitudeDegrees": np.round(lon, 9),
            "AltitudeMeters": np.round(rng.uniform(-30, 40) + rng.normal(0, 0.3, epochs), 3),
            "SpeedMps": np.round(speed + rng.normal(0, 0.2, epochs), 3),
            "BearingDegrees": np.round(np.degrees(heading) % 360 + rng.normal(0, 1, epochs), 3)
            % 360,
            "start_ms": start_ms,
        }
    )


def _ecef(lat: np.ndarray, lon: np.ndarray, height: np.ndarray) -> np.ndarray:
    phi, lam = np.radians(lat), np.radians(lon)
    n = WGS84_A / np.sqrt(1 - WGS84_E2 * np.sin(phi) ** 2)
    return np.column_stack(
        [
            (n + height) * np.cos(phi) * np.cos(lam),
            (n + height) * np.cos(phi) * np.sin(lam),
            (n * (1 - WGS84_E2) + height) * np.sin(phi),
        ]
    )


def _truth(route: pd.DataFrame, offset_ms: int, rng: np.random.Generator) -> pd.DataFrame:
    times = route["start_ms"] + offset_ms + (route["seconds"] * 1000).astype(np.int64)
    return pd.DataFrame(
        {
            "MessageType": "Fix",
            "Provider": "GT",
            "LatitudeDegrees": route["LatitudeDegrees"],
            "LongitudeDegrees": route["LongitudeDegrees"],
            "AltitudeMeters": route["AltitudeMeters"],
            "SpeedMps": route["SpeedMps"],
            "AccuracyMeters": 0.1,
            "BearingDegrees": np.round(route["BearingDegrees"], 3),
            "UnixTimeMillis": times.astype(np.int64),
        }
    )[list(TRUTH_COLUMNS)]


def _device_gnss(truth: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    epochs = len(truth)
    rows = epochs * SIGNALS_PER_EPOCH
    wls = _ecef(
        truth["LatitudeDegrees"].to_numpy(),
        truth["LongitudeDegrees"].to_numpy(),
        truth["AltitudeMeters"].to_numpy(),
    ) + rng.normal(0, 3.0, (epochs, 3))
    frame = pd.DataFrame(
        {name: np.round(rng.normal(0, 1, rows), 6) for name in GNSS_COLUMNS}, index=range(rows)
    )
    frame["MessageType"] = "Raw"
    frame["utcTimeMillis"] = np.repeat(truth["UnixTimeMillis"].to_numpy(), SIGNALS_PER_EPOCH)
    frame["Svid"] = rng.integers(1, 33, rows)
    frame["Cn0DbHz"] = np.round(rng.uniform(20, 45, rows), 3)
    frame["ConstellationType"] = rng.choice([1, 3, 5, 6], rows)
    frame["SignalType"] = rng.choice(["GPS_L1", "GAL_E1", "GLO_G1", "BDS_B1I"], rows)
    frame["CodeType"] = "C"
    for axis, column in enumerate(("X", "Y", "Z")):
        frame[f"WlsPosition{column}EcefMeters"] = np.round(
            np.repeat(wls[:, axis], SIGNALS_PER_EPOCH), 3
        )
    return frame[list(GNSS_COLUMNS)]


def _device_imu(truth: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    kinds = ("UncalAccel", "UncalGyro", "UncalMag")
    times = np.repeat(truth["UnixTimeMillis"].to_numpy(), len(kinds))
    size = len(times)
    return pd.DataFrame(
        {
            "MessageType": np.tile(kinds, len(truth)),
            "utcTimeMillis": times + rng.integers(0, 900, size),
            "MeasurementX": np.round(rng.normal(0, 1, size), 6),
            "MeasurementY": np.round(rng.normal(0, 1, size), 6),
            "MeasurementZ": np.round(rng.normal(9.8, 1, size), 6),
            "BiasXMicroT": np.round(rng.normal(0, 0.1, size), 6),
            "BiasYMicroT": np.round(rng.normal(0, 0.1, size), 6),
            "BiasZMicroT": np.round(rng.normal(0, 0.1, size), 6),
        }
    )


def _nmea_coordinate(value: float, width: int, positive: str, negative: str) -> tuple[str, str]:
    degrees = int(abs(value))
    minutes = (abs(value) - degrees) * 60
    return f"{degrees:0{width}d}{minutes:011.8f}", positive if value >= 0 else negative


def span_log(truth: pd.DataFrame) -> str:
    """The reference receiver's NMEA log of ``truth``: a GGA and an RMC sentence per epoch."""
    import pynmea2  # a dev dependency, imported only where sentences are made or read

    lines = []
    for row in truth.itertuples(index=False):
        moment = datetime.fromtimestamp(row.UnixTimeMillis / 1000, tz=timezone.utc)
        clock, date = moment.strftime("%H%M%S.%f")[:9], moment.strftime("%d%m%y")
        lat, ns = _nmea_coordinate(row.LatitudeDegrees, 2, "N", "S")
        lon, ew = _nmea_coordinate(row.LongitudeDegrees, 3, "E", "W")
        altitude = f"{row.AltitudeMeters:.3f}"
        gga = (clock, lat, ns, lon, ew, "4", "18", "0.6", altitude, "M", "-30.0", "M", "", "")
        rmc = (clock, "A", lat, ns, lon, ew, f"{row.SpeedMps * 1.943844:.3f}", "0.0", date, "", "")
        lines.append(str(pynmea2.GGA("GP", "GGA", gga)))
        lines.append(str(pynmea2.RMC("GP", "RMC", rmc)))
    return "\r\n".join(lines) + "\r\n"


def _gnss_log(gnss: pd.DataFrame, phone: str) -> str:
    header = f"# Version: v3.0.0.1 Platform: 11 Manufacturer: Google Model: {phone}\n#\n"
    columns = ["utcTimeMillis", "Svid", "Cn0DbHz", "ConstellationType", "CodeType"]
    raw = "# Raw," + ",".join(columns) + "\n"
    body = "".join("Raw," + ",".join(map(str, row)) + "\n" for row in gnss[columns].to_numpy())
    return header + raw + body


def _rinex(phone: str) -> str:
    return (
        "     3.03           OBSERVATION DATA    M: Mixed            RINEX VERSION / TYPE\n"
        f"{phone:<60}MARKER NAME\n"
        "                                                            END OF HEADER\n"
    )


def _write_trip(
    bundle: zipfile.ZipFile,
    folder: str,
    truth: pd.DataFrame,
    phone: str,
    labelled: bool,
    rng: np.random.Generator,
) -> None:
    gnss = _device_gnss(truth, rng)
    year = folder.split("/")[1][2:4]
    bundle.writestr(f"{folder}/device_gnss.csv", gnss.to_csv(index=False))
    bundle.writestr(f"{folder}/device_imu.csv", _device_imu(truth, rng).to_csv(index=False))
    bundle.writestr(f"{folder}/supplemental/gnss_log.txt", _gnss_log(gnss, phone))
    bundle.writestr(f"{folder}/supplemental/gnss_rinex.{year}o", _rinex(phone))
    if labelled:
        bundle.writestr(f"{folder}/ground_truth.csv", truth.to_csv(index=False))
        bundle.writestr(f"{folder}/supplemental/span_log.nmea", span_log(truth))


def _start_ms(date: str, rng: np.random.Generator) -> int:
    midnight = datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=timezone.utc)
    return int(midnight.timestamp() * 1000) + int(rng.integers(16, 23)) * 3_600_000


def make_download(folder: Path, rng: np.random.Generator) -> None:
    metadata = {
        "metadata/accumulated_delta_range_state_bit_map.json": json.dumps(
            {"0": "ADR_STATE_UNKNOWN", "1": "ADR_STATE_VALID", "2": "ADR_STATE_RESET"}
        ),
        "metadata/raw_state_bit_map.json": json.dumps(
            {"0": "STATE_UNKNOWN", "1": "STATE_CODE_LOCK", "8": "STATE_TOW_DECODED"}
        ),
        "metadata/constellation_type_mapping.csv": "ConstellationType,ConstellationName\n"
        "0,UNKNOWN\n1,GPS\n3,GLONASS\n5,BEIDOU\n6,GALILEO\n",
    }
    samples = []
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, text in metadata.items():
            bundle.writestr(name, text)
        plan = [("train", drive, city) for drive, city in drives()]
        plan += [("test", "2022-04-01-US-LAX-1", "LAX"), ("test", "2022-04-25-US-SJC-1", "SJC")]
        for part, drive, city in plan:
            route = _route(rng, city, _start_ms(drive[:10], rng))
            count = 1 if part == "test" else int(rng.integers(1, 3))
            for phone in sorted(rng.choice(PHONES, count, replace=False)):
                truth = _truth(route, int(rng.integers(0, 1000)), rng)
                _write_trip(bundle, f"{part}/{drive}/{phone}", truth, phone, part == "train", rng)
                if part == "test":
                    samples.append(
                        pd.DataFrame(
                            {
                                "tripId": f"{drive}/{phone}",
                                "UnixTimeMillis": truth["UnixTimeMillis"],
                                "LatitudeDegrees": 37.904611315634504,
                                "LongitudeDegrees": -86.48107806249548,
                            }
                        )
                    )
        bundle.writestr("sample_submission.csv", pd.concat(samples).to_csv(index=False))


def _ground_truths(public: Path, part: str) -> pd.DataFrame:
    frames = [
        pd.read_csv(path, dtype={"UnixTimeMillis": str}).assign(
            tripId=f"{path.parent.parent.name}-{path.parent.name}", drive=path.parent.parent.name
        )
        for path in sorted((public / part).glob("*/*/ground_truth.csv"))
    ]
    return pd.concat(frames, ignore_index=True)


def public_train_labels(public: Path) -> pd.DataFrame:
    truth = _ground_truths(public, "train")
    return truth[["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]]


def group_values(public: Path) -> tuple[list[str], list[str]]:
    """The train and the test drives: a drive (one car, all its phones) is never split."""
    return [
        sorted(path.name for path in (public / part).iterdir() if path.is_dir())
        for part in ("train", "test")
    ]  # type: ignore[return-value]


def _metadata_features(trips: pd.Series, times: pd.Series) -> np.ndarray:
    """What ids and folder names tell: the time of day and year, the city, the phone model."""
    millis = times.astype(np.int64).to_numpy()
    day = (millis % 86_400_000) / 86_400_000
    year = millis / (365.25 * 86_400_000)
    columns = [day, year - year.mean()]
    names = trips.astype(str)
    for token in (*CITIES, *PHONES):
        columns.append(names.str.contains(f"-{token}-|-{token}$", regex=True).to_numpy(float))
    return np.column_stack(columns)


def leak_probe(prepared: object) -> pd.DataFrame:
    """A nearest-neighbour model of trip ids, folder names and timestamps, fitted on the public
    train trips' ground truth, predicting every test row's position (nothing of a trip's own
    measurements)."""
    public = prepared.public  # type: ignore[attr-defined]
    train = _ground_truths(public, "train")
    sample = pd.read_csv(public / "sample_submission.csv", dtype={"UnixTimeMillis": str})
    model = KNeighborsRegressor(n_neighbors=5).fit(
        _metadata_features(train["tripId"], train["UnixTimeMillis"]),
        train[["LatitudeDegrees", "LongitudeDegrees"]].to_numpy(),
    )
    predicted = model.predict(_metadata_features(sample["tripId"], sample["UnixTimeMillis"]))
    return sample.assign(LatitudeDegrees=predicted[:, 0], LongitudeDegrees=predicted[:, 1])
