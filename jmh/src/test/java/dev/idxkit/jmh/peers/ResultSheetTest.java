package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultSheetTest {
  @TempDir Path dir;

  @Test
  void csvAndJsonHoldEveryFigureEscaped() throws Exception {
    ResultSheet s = new ResultSheet("t", Machine.describe());
    s.parameter("keys", 10);
    s.setting("a", "say \"hi\"\n");
    s.add("a", "c,1", "lookup", 1234.5, "ops/s");
    s.add("b", "", "lookup", Double.NaN, "ops/s");
    s.ratio("lookup a / b", 2.0, "x");
    s.goal("fast", "2x", true);
    s.note("tab\there");
    List<Path> files = s.write(dir, "t");

    List<String> csv = Files.readAllLines(files.get(0));
    assertThat(csv)
        .containsExactly(
            "experiment,store,config,metric,value,unit",
            "t,a,\"c,1\",lookup,1234.50,ops/s",
            "t,b,,lookup,null,ops/s",
            "t,ratio,,lookup a / b,2,x",
            "t,goal,met,fast,,2x");
    String json = Files.readString(files.get(1));
    assertThat(json)
        .contains("\"format\": 1")
        .contains("\"a\": \"say \\\"hi\\\"\\n\"")
        .contains("{\"store\": \"b\", \"config\": \"\", \"metric\": \"lookup\", \"value\": null")
        .contains("\"tab\\there\"")
        .contains("{\"goal\": \"fast\", \"measured\": \"2x\", \"met\": true}");
    assertThat(s.value("a", "c,1", "lookup")).isEqualTo(1234.5);
    assertThat(s.value("a", "", "lookup")).isNaN();
  }
}
