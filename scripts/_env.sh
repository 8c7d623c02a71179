# Sourced by scripts/*.sh: make sure .venv exists and holds this checkout's chronoqa[dev], then activate it.
# Reinstalls when pyproject.toml changes. CHRONOQA_VENV overrides the folder.
venv="${CHRONOQA_VENV:-.venv}"
stamp="$venv/.chronoqa-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv ..." >&2
  python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "installing chronoqa[dev,dense,onnx] into $venv (first use or pyproject.toml changed) ..." >&2
  "$venv/bin/python" -m pip install -q --upgrade pip
  # torch first, pinned: the CPU build; an unpinned torch pulls a multi-GB CUDA build.
  "$venv/bin/python" -m pip install -q "torch==2.13.0"
  "$venv/bin/python" -m pip install -q -e ".[dev,dense,onnx]"
  echo "$want" > "$stamp"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# Opt-in: CHRONOQA_LLM_SERVER=1 installs the local LLM server extra (llama-cpp-python built portably:
# no -march=native, no AMX/AVX-512, which crash on some CPUs) and the SmolLM2 test model.
if [ "${CHRONOQA_LLM_SERVER:-0}" = "1" ] && ! python -c "import llama_cpp" 2>/dev/null; then
  echo "installing chronoqa[llm-server] into $venv (compiles llama.cpp, about 5 minutes) ..." >&2
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DGGML_AVX512=OFF" \
    python -m pip install -q -e ".[dev,dense,onnx,llm-server]"
fi
