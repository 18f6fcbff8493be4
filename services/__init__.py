"""Local services for development and CI: Neo4j 5.26 from Maven Central jars and Debian's redis-server."""

from strata.services.manager import ServicesManager, ServiceStatus

__all__ = ["ServiceStatus", "ServicesManager"]
