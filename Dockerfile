# Image for the API and the workers (docker-compose.yml). Neo4j and Redis run in their own containers.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY schema schema
COPY graph graph
COPY resolve resolve
COPY ingest ingest
COPY api api
COPY services services
RUN pip install --no-cache-dir .
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
