# Image for the API and the workers (docker-compose.yml). Neo4j and Redis run in their own containers.

# The explorer's graph library (/ui), from npm at the version api/ui/package-lock.json pins.
FROM node:20-slim AS ui
WORKDIR /ui
COPY api/ui/package.json api/ui/package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY schema schema
COPY graph graph
COPY resolve resolve
COPY ingest ingest
COPY memory memory
COPY api api
COPY --from=ui /ui/node_modules/cytoscape/dist/cytoscape.min.js api/ui/static/vendor/cytoscape.min.js
COPY --from=ui /ui/node_modules/cytoscape/LICENSE api/ui/static/vendor/cytoscape.LICENSE
COPY services services
COPY src src
RUN pip install --no-cache-dir .
# Run as an unprivileged user; the LLM cache volume mounts on a folder it owns.
RUN useradd --create-home --uid 10001 strata && mkdir -p /var/cache/strata/llm && chown -R strata /var/cache/strata
USER strata
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
