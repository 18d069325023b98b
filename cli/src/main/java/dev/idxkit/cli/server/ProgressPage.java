package dev.idxkit.cli.server;

import dev.idxkit.cli.progress.Durations;
import java.util.Locale;

/**
 * {@code GET /}: one self-contained HTML page (inline CSS and script, no external assets, so it
 * works on an air-gapped database host) showing each phase of the job: state, a progress bar, done
 * of total units, rate and ETA, plus warnings; the bytes in the job's temp files per directory; the
 * job's plan (sort groups, which index where, memory, temp directories); and after the end its
 * final report, which stays while the command lingers ({@code --http-linger}).
 *
 * <p>The page is rendered complete on the server, so it reads right without script and in a
 * screenshot taken at load; its script then polls {@code /v1/status} every second and redraws the
 * same table with the same formatting, and says so when the server stops answering (the job has
 * ended and its server with it). Without a job (plain {@code idxkit serve}) it says which database
 * is served and links the JSON endpoints.
 */
final class ProgressPage {
  private ProgressPage() {}

  static String render(Api api) {
    JobProgress.Snapshot s = api.job() == null ? null : api.job().snapshot();
    String title = s == null ? "idxkit serve" : "idxkit " + s.job();
    StringBuilder b = new StringBuilder(8192);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append(CSS)
        .append("</style></head><body>\n<h1 id=\"title\">")
        .append(esc(title))
        .append("</h1>\n");
    if (s == null) {
      b.append("<p id=\"summary\">No job is running here. ");
      if (api.databaseOrNull() != null) {
        b.append("Serving database <code>")
            .append(esc(api.databaseOrNull().dir().toAbsolutePath().normalize().toString()))
            .append("</code> (")
            .append(api.config().writable() ? "writable" : "read-only")
            .append(").");
      }
      b.append("</p>\n<p><a href=\"/v1/status\">/v1/status</a> · <a href=\"/v1/tables\">")
          .append("/v1/tables</a> · <a href=\"/metrics\">/metrics</a></p>\n</body></html>\n");
      return b.toString();
    }
    b.append("<p id=\"summary\">")
        .append(summary(s))
        .append("</p>\n<table><thead><tr><th>Phase</th><th>State</th>")
        .append("<th class=\"barcol\">Progress</th><th class=\"num\">Done / total</th>")
        .append("<th class=\"num\">Rate</th><th class=\"num\">ETA</th></tr></thead>\n")
        .append("<tbody id=\"phases\">\n");
    for (JobProgress.PhaseView p : s.phases()) {
      row(b, p);
    }
    b.append("</tbody></table>\n<ul id=\"warnings\">");
    for (String w : s.warnings()) {
      b.append("<li>").append(esc(w)).append("</li>");
    }
    b.append("</ul>\n<h2>Temp space</h2>\n<table class=\"temp\"><thead><tr><th>Directory</th>")
        .append("<th class=\"num\">In temp files now</th></tr></thead><tbody id=\"temp\">");
    tempRows(b, s.tempBytes());
    b.append("</tbody></table>\n<div id=\"report\">");
    lines(b, "Report", s.report());
    b.append("</div>\n<div id=\"plan\">");
    lines(b, "Plan", s.plan());
    b.append("</div>\n<p id=\"conn\" class=\"muted\">Refreshes every second.</p>\n<script>\n")
        .append(SCRIPT)
        .append("</script>\n</body></html>\n");
    return b.toString();
  }

  private static void tempRows(StringBuilder b, java.util.Map<String, Long> temp) {
    if (temp.isEmpty()) {
      b.append("<tr><td class=\"muted\" colspan=\"2\">none yet</td></tr>");
    }
    temp.forEach(
        (dir, bytes) ->
            b.append("<tr><td><code>")
                .append(esc(dir))
                .append("</code></td><td class=\"num\">")
                .append(esc(dev.idxkit.cli.output.Sizes.bytes(bytes)))
                .append("</td></tr>"));
  }

  /** A titled block of preformatted lines (the plan, the report); nothing when there are none. */
  private static void lines(StringBuilder b, String title, java.util.List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    b.append("<h2>").append(title).append("</h2><pre>");
    for (String l : lines) {
      b.append(esc(l)).append('\n');
    }
    b.append("</pre>");
  }

  private static String summary(JobProgress.Snapshot s) {
    String m = s.message() == null || s.message().isEmpty() ? "" : " · " + esc(s.message());
    return "<span class=\"state "
        + s.state().label()
        + "\">"
        + s.state().label()
        + "</span> · elapsed "
        + Durations.seconds(s.elapsedSeconds())
        + m;
  }

  private static void row(StringBuilder b, JobProgress.PhaseView p) {
    String pct = String.format(Locale.ROOT, "%.1f", p.fraction() * 100);
    b.append("<tr class=\"")
        .append(p.state().label())
        .append("\"><td class=\"phase\">")
        .append(esc(p.name()))
        .append("</td><td class=\"state\">")
        .append(p.state().label())
        .append("</td><td><div class=\"bar\"><div class=\"fill\" style=\"width:")
        .append(pct)
        .append("%\"></div><span>")
        .append(pct)
        .append(" %</span></div></td><td class=\"num\">")
        .append(count(p.done()))
        .append(" / ")
        .append(p.total() > 0 ? count(p.total()) : "?")
        .append(' ')
        .append(esc(p.unit()))
        .append("</td><td class=\"num\">")
        .append(p.state() == JobProgress.State.PENDING ? "" : rate(p.ratePerSecond(), p.unit()))
        .append("</td><td class=\"num\">")
        .append(p.etaSeconds() == null ? "" : Durations.seconds(p.etaSeconds()))
        .append("</td></tr>\n");
  }

  /** 1234567 as {@code 1,234,567}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** Units per second with a k/M suffix: {@code 12.3k pages/s}. */
  static String rate(double r, String unit) {
    String v;
    if (r >= 1e6) {
      v = String.format(Locale.ROOT, "%.1fM", r / 1e6);
    } else if (r >= 1e3) {
      v = String.format(Locale.ROOT, "%.1fk", r / 1e3);
    } else {
      v = String.format(Locale.ROOT, "%.0f", r);
    }
    return v + " " + esc(unit) + "/s";
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static final String CSS =
      """
      body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem;
             color: #1d232a; background: #f7f8fa; }
      h1 { font-size: 1.4rem; margin: 0 0 .4rem; }
      table { border-collapse: collapse; width: 100%; background: #fff;
              box-shadow: 0 1px 3px rgba(0,0,0,.12); }
      th, td { padding: .55rem .8rem; text-align: left; border-bottom: 1px solid #e3e6ea; }
      th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: #5b6570; }
      .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      .barcol { width: 34%; }
      .phase { font-weight: 600; }
      .bar { position: relative; background: #e8ebef; border-radius: 4px; height: 1.3rem; }
      .fill { background: #2f7ed8; height: 100%; border-radius: 4px; }
      .bar span { position: absolute; left: .5rem; top: .1rem; font-size: .8rem; }
      tr.done .fill { background: #3a9d5d; }
      tr.failed .fill { background: #c0392b; }
      tr.pending { color: #8a939c; }
      .state.running, tr.running td.state { color: #2f7ed8; }
      .state.done, tr.done td.state { color: #3a9d5d; }
      .state.failed, tr.failed td.state { color: #c0392b; }
      .muted { color: #8a939c; font-size: .85rem; }
      #warnings li { color: #a35d00; }
      h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
      table.temp { width: auto; min-width: 30rem; }
      pre { background: #fff; padding: .8rem 1rem; overflow-x: auto; font-size: .82rem;
            box-shadow: 0 1px 3px rgba(0,0,0,.12); }
      #report pre { border-left: 4px solid #3a9d5d; }
      """;

  private static final String SCRIPT =
      """
      (function () {
        function esc(s) { return String(s).replace(/[<>&"']/g, function (c) {
          return {'<':'&lt;','>':'&gt;','&':'&amp;','"':'&quot;',"'":'&#39;'}[c]; }); }
        function dur(s) {
          if (s < 10) return Math.max(0, s).toFixed(1) + 's';
          s = Math.round(s);
          if (s < 60) return s + 's';
          function two(n) { return (n < 10 ? '0' : '') + n; }
          if (s < 3600) return Math.floor(s / 60) + 'm' + two(s % 60) + 's';
          return Math.floor(s / 3600) + 'h' + two(Math.floor(s % 3600 / 60)) + 'm';
        }
        function count(n) { return n.toLocaleString('en-US'); }
        function rate(r, u) {
          var v = r >= 1e6 ? (r / 1e6).toFixed(1) + 'M' : r >= 1e3 ? (r / 1e3).toFixed(1) + 'k'
              : r.toFixed(0);
          return v + ' ' + esc(u) + '/s';
        }
        function draw(job) {
          var m = job.message ? ' · ' + esc(job.message) : '';
          document.getElementById('summary').innerHTML = '<span class="state ' + job.state + '">'
              + job.state + '</span> · elapsed ' + dur(job.elapsedSeconds) + m;
          var rows = job.phases.map(function (p) {
            var pct = (p.fraction * 100).toFixed(1);
            return '<tr class="' + p.state + '"><td class="phase">' + esc(p.name) + '</td>'
                + '<td class="state">' + p.state + '</td><td><div class="bar"><div class="fill"'
                + ' style="width:' + pct + '%"></div><span>' + pct + ' %</span></div></td>'
                + '<td class="num">' + count(p.done) + ' / ' + (p.total > 0 ? count(p.total) : '?')
                + ' ' + esc(p.unit) + '</td><td class="num">'
                + (p.state === 'pending' ? '' : rate(p.ratePerSecond, p.unit)) + '</td>'
                + '<td class="num">' + (p.etaSeconds === null ? '' : dur(p.etaSeconds)) + '</td></tr>';
          });
          document.getElementById('phases').innerHTML = rows.join('');
          document.getElementById('warnings').innerHTML = job.warnings.map(function (w) {
            return '<li>' + esc(w) + '</li>'; }).join('');
          var dirs = Object.keys(job.tempBytes || {});
          document.getElementById('temp').innerHTML = dirs.length === 0
              ? '<tr><td class="muted" colspan="2">none yet</td></tr>'
              : dirs.map(function (d) {
                  return '<tr><td><code>' + esc(d) + '</code></td><td class="num">'
                      + size(job.tempBytes[d]) + '</td></tr>'; }).join('');
          document.getElementById('plan').innerHTML = block('Plan', job.plan);
          document.getElementById('report').innerHTML = block('Report', job.report);
        }
        function block(title, lines) {
          if (!lines || lines.length === 0) return '';
          return '<h2>' + title + '</h2><pre>' + lines.map(esc).join('\\n') + '\\n</pre>';
        }
        function size(b) {
          var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
          while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
          return (i === 0 ? b.toFixed(0) : b.toFixed(1)) + ' ' + u[i];
        }
        function poll() {
          fetch('/v1/status', {cache: 'no-store'}).then(function (r) {
            if (!r.ok) throw new Error('HTTP ' + r.status);
            return r.json();
          }).then(function (st) {
            if (st.job) draw(st.job);
            document.getElementById('conn').textContent =
                'Updated ' + new Date().toLocaleTimeString() + '; refreshes every second.';
            // After the end, until the report arrives (the command adds it just after).
            if (!st.job || st.job.state === 'running'
                || (st.job.state === 'done' && st.job.report.length === 0)) {
              setTimeout(poll, 1000);
            } else {
              document.getElementById('conn').textContent = 'The job has ended; this is its'
                  + ' final report. Updated ' + new Date().toLocaleTimeString() + '.';
            }
          }).catch(function (e) {
            document.getElementById('conn').textContent =
                'The server stopped answering (' + e.message + '): the job has ended or its'
                + ' server was stopped. Retrying in 5 s.';
            setTimeout(poll, 5000);
          });
        }
        setTimeout(poll, 1000);
      })();
      """;
}
