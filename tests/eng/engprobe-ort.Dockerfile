# The probe image engprobe:1 (Debian's part of the eng profile) plus onnxruntime, for proving
# onnx-export-parity by hand. Build context: a folder holding the wheel, fetched on the host with
#   pip download onnxruntime --only-binary=:all: --python-version 3.11 \
#       --platform manylinux_2_27_x86_64 --no-deps -d CONTEXT
# then: docker build -t engprobe-ort:1 -f tests/eng/engprobe-ort.Dockerfile CONTEXT
FROM engprobe:1
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-protobuf python3-sympy python3-flatbuffers \
      python3-coloredlogs python3-packaging \
 && rm -rf /var/lib/apt/lists/*
COPY onnxruntime-*.whl /tmp/
RUN pip install --no-deps --break-system-packages /tmp/onnxruntime-*.whl && rm /tmp/onnxruntime-*.whl \
 && python3 -c "import onnxruntime; print(onnxruntime.__version__)"
