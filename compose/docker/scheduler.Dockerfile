# The scheduler (scheduler-streams) image, built from the Maven output
# (./mvnw install -DskipTests first) with the repository root as build context: docker compose build.
FROM eclipse-temurin:17-jre
ARG VERSION=0.1.0
RUN useradd --system --uid 10001 --home-dir /opt/tasklane tasklane \
 && mkdir -p /var/lib/tasklane/scheduler && chown tasklane /var/lib/tasklane/scheduler
# The runnable distribution (tasklane-scheduler-streams-${VERSION}-dist.zip), as the build leaves it unpacked in target/.
COPY scheduler-streams/target/tasklane-scheduler-streams-${VERSION}-dist/tasklane-scheduler-streams-${VERSION}/ /opt/tasklane/
RUN ln -s /opt/tasklane/tasklane-scheduler-streams-${VERSION}.jar /opt/tasklane/app.jar
WORKDIR /opt/tasklane
USER tasklane
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75" MALLOC_ARENA_MAX=2
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/opt/tasklane/app.jar"]
