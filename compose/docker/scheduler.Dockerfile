# The scheduler (scheduler-streams) image, built from the Maven output
# (./mvnw install -DskipTests first) with the repository root as build context: docker compose build.
FROM eclipse-temurin:17.0.16_8-jre
ARG VERSION=0.1.0
RUN useradd --system --uid 10001 --home-dir /opt/tasklane tasklane \
 && mkdir -p /var/lib/tasklane/scheduler && chown tasklane /var/lib/tasklane/scheduler
# The runnable distribution (tasklane-scheduler-streams-${VERSION}-dist.zip), as the build leaves it unpacked in target/.
COPY scheduler-streams/target/tasklane-scheduler-streams-${VERSION}-dist/tasklane-scheduler-streams-${VERSION}/ /opt/tasklane/
RUN ln -s /opt/tasklane/tasklane-scheduler-streams-${VERSION}.jar /opt/tasklane/app.jar
WORKDIR /opt/tasklane
USER tasklane
# The heap gets a quarter of the container's memory (256 MiB of 1 GiB): the stores live off the
# heap (store-memory-mb, 128 MiB by default) and the JVM and RocksDB need about 450 MiB more; with
# a 256 MiB heap a scheduler held 10,000,000 pending tasks in 641 MiB (docs/operations.md). 75 %
# would overrun a 1 GiB limit once G1 had grown the heap.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=25" MALLOC_ARENA_MAX=2
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/opt/tasklane/app.jar"]
