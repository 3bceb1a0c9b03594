# dicehall's server image (docs/self-hosting.md). Two stages: the build stage installs the locked Python packages
# (uv.lock, `uv sync --locked`), builds the front end with Node 20 and compiles the Numba kernels once (what
# `make kernels` does); the run stage is a slim Python with only the virtual environment, as a non-root user.
#
#   docker build -t dicehall .        (or: podman build --format docker, which keeps the HEALTHCHECK)
#   docker run -p 8000:8000 -v dicehall-data:/data dicehall
#
# The base images are arguments so that a machine without a registry can build from local ones.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS node

FROM ${PYTHON_IMAGE} AS build
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
# The app lives at the same path in both stages: Numba's kernel cache is keyed by the source files' paths.
WORKDIR /opt/dicehall
ENV UV_PYTHON_DOWNLOADS=never UV_LINK_MODE=copy UV_COMPILE_BYTECODE=1 \
    NUMBA_CACHE_DIR=/opt/dicehall/numba-cache
COPY deps/uv.txt deps/uv.txt
RUN python -m venv /opt/uv && /opt/uv/bin/pip install -q --require-hashes -r deps/uv.txt
# The front end first (it changes less often than it is rebuilt with the Python code)
COPY web/package.json web/package-lock.json web/
RUN cd web && npm ci --no-audit --no-fund
COPY . .
RUN cd web && npm run build
# The package itself installed into the environment (not a link to /opt/dicehall), with PostgreSQL's driver
RUN /opt/uv/bin/uv sync --locked --no-editable --extra postgres --python python3.11
# make kernels: the Clever rules and bot:master compiled into NUMBA_CACHE_DIR now, not by the first game. From /,
# so that the installed package is compiled (Numba keys its cache by the source's path), not the tree here.
RUN cd / && /opt/dicehall/.venv/bin/python -c "import dicehall.web.botwarm" \
    && /opt/dicehall/.venv/bin/python -c "import dicehall.clever.blocks as b; b.warm()"

FROM ${PYTHON_IMAGE}
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin dicehall \
    && mkdir /data && chown dicehall:dicehall /data
WORKDIR /opt/dicehall
COPY --from=build /opt/dicehall/.venv /opt/dicehall/.venv
# Numba takes a cache directory only where it may write: the server's user owns the compiled kernels
COPY --from=build --chown=dicehall:dicehall /opt/dicehall/numba-cache /opt/dicehall/numba-cache
ENV PATH=/opt/dicehall/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/opt/dicehall/numba-cache \
    HOME=/data \
    DICEHALL_HOST=0.0.0.0 \
    DICEHALL_PORT=8000 \
    DICEHALL_DB=sqlite:////data/dicehall.sqlite \
    DICEHALL_LOG_FORMAT=json
VOLUME ["/data"]
USER dicehall
EXPOSE 8000
# /healthz: the process answers (liveness); /readyz adds the database and its migrations (docs/web.md)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request as u; port = os.environ.get('DICEHALL_PORT', '8000'); sys.exit(u.urlopen('http://127.0.0.1:' + port + '/healthz', timeout=4).status != 200)"]
# The server applies the database's migrations itself before it listens (dicehall/web/db.py, Store).
CMD ["dicehall", "serve"]
