package io.tasklane.bench.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG charts of {@code docs/benchmarks.md}, drawn from a run's {@link Results}: completions per
 * second, the latency and lateness distributions and the scheduler's RSS while filling. Only the
 * charts that the run has data for.
 */
final class Charts {
  private Charts() {}

  /**
   * Writes the charts into {@code dir}; returns their Markdown image links (relative to {@code
   * docs/}), in the order they belong in the report.
   */
  static List<String> write(Results r, Path dir) throws IOException {
    List<String> charts = new ArrayList<>();
    if (!r.throughput.isEmpty()) {
      XYChart c = chart("Completions per second", "seconds since first commit", "tasks/s");
      r.throughput.forEach(
          (name, s) ->
              c.addSeries(
                      name,
                      s.stream().map(x -> x[0] / 1000.0).toList(),
                      s.stream().map(x -> (double) x[1]).toList())
                  .setMarker(SeriesMarkers.NONE));
      charts.add(save(c, dir, "throughput.png", "throughput over time"));
    }
    if (!r.latencies.isEmpty()) {
      charts.add(
          save(
              percentiles("Commit → handler start", r.latencies),
              dir,
              "latency.png",
              "latency distribution"));
    }
    if (!r.lateness.isEmpty()) {
      charts.add(
          save(
              percentiles("Lateness (handler start − dueAt)", r.lateness),
              dir,
              "lateness.png",
              "lateness distribution"));
    }
    if (!r.cpuPerTask.isEmpty()) {
      charts.add(save(cpuPerTask(r.cpuPerTask), dir, "cpu.png", "CPU per task by component"));
    }
    if (!r.changelogPerTask.isEmpty()) {
      charts.add(
          save(
              stacked(
                  "Scheduler changelog records per task, by store (throughput scenario)",
                  "changelog records per task",
                  r.changelogPerTask),
              dir,
              "changelog.png",
              "scheduler changelog records per task by store"));
    }
    if (!r.scale.isEmpty()) {
      XYChart c =
          chart(
              "Scheduler RSS while admitting far-future tasks",
              "pending tasks admitted",
              "RSS MiB");
      c.addSeries(
              "scheduler RSS",
              r.scale.stream().map(x -> x[1]).toList(),
              r.scale.stream().map(x -> x[2]).toList())
          .setMarker(SeriesMarkers.NONE);
      charts.add(save(c, dir, "scale.png", "scheduler RSS while filling"));
    }
    return charts;
  }

  private static XYChart chart(String title, String x, String y) {
    XYChart c =
        new XYChartBuilder()
            .width(800)
            .height(450)
            .title(title)
            .xAxisTitle(x)
            .yAxisTitle(y)
            .build();
    c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
    return c;
  }

  /** One stacked bar per system: the µs of CPU each component spends per task. */
  private static CategoryChart cpuPerTask(Map<String, Map<String, Double>> bySystem) {
    return stacked(
        "CPU time per task, end to end (throughput scenario)", "µs of CPU per task", bySystem);
  }

  /** One stacked bar per system of the parts in {@code bySystem}. */
  private static CategoryChart stacked(
      String title, String yAxis, Map<String, Map<String, Double>> bySystem) {
    CategoryChart c =
        new CategoryChartBuilder()
            .width(800)
            .height(450)
            .title(title)
            .xAxisTitle("")
            .yAxisTitle(yAxis)
            .build();
    c.getStyler().setStacked(true);
    c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    List<String> systems = new ArrayList<>(bySystem.keySet());
    java.util.Set<String> components = new java.util.LinkedHashSet<>();
    bySystem.values().forEach(m -> components.addAll(m.keySet()));
    for (String component : components) {
      c.addSeries(
          component,
          systems,
          systems.stream().map(s -> bySystem.get(s).getOrDefault(component, 0.0)).toList());
    }
    return c;
  }

  private static XYChart percentiles(String title, Map<String, Histogram> hs) {
    XYChart c = chart(title, "percentile", "ms");
    double[] ps = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.9, 100};
    hs.forEach(
        (name, h) -> {
          if (h.getTotalCount() > 0) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (double p : ps) {
              xs.add(p);
              ys.add((double) (p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p)));
            }
            c.addSeries(name, xs, ys);
          }
        });
    return c;
  }

  private static String save(Chart<?, ?> c, Path dir, String file, String alt) throws IOException {
    System.setProperty("java.awt.headless", "true");
    BitmapEncoder.saveBitmap(c, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return "![" + alt + "](benchmarks/" + file + ")";
  }
}
