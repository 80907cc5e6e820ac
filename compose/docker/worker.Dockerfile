# The example worker (examples' WorkerApp) image, built from the Maven output
# (./mvnw install -DskipTests first) with the repository root as build context: docker compose build.
FROM eclipse-temurin:17.0.16_8-jre
ARG VERSION=0.1.0
RUN useradd --system --uid 10001 --home-dir /opt/tasklane tasklane
# The runnable distribution (tasklane-examples-${VERSION}-dist.zip), as the build leaves it unpacked in target/.
COPY examples/target/tasklane-examples-${VERSION}-dist/tasklane-examples-${VERSION}/ /opt/tasklane/
RUN ln -s /opt/tasklane/tasklane-examples-${VERSION}.jar /opt/tasklane/app.jar
WORKDIR /opt/tasklane
USER tasklane
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75"
EXPOSE 8081
ENTRYPOINT ["java", "-jar", "/opt/tasklane/app.jar"]
