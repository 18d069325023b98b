package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.JavaCommand;
import dev.idxkit.jmh.experiments.AccountingPass.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the accounting experiment in a child JVM, then {@code --resume} in this one: the
 * tallies equal the model's. No timing: the child stops itself inside its first checkpoint callback
 * inside the random phase (after the checkpoint is committed) and says so; the test kills it only
 * then.
 */
class AccountingKillTest {
  static final String[] SIZE = {
    "--objects",
    "12000",
    "--clustered",
    "30",
    "--seed",
    "99",
    "--checkpoint",
    "1500",
    "--readers",
    "1,2",
    "--warmup",
    "0"
  };

  @TempDir Path tmp;

  /** The child: the experiment with a listener that parks at the first random-phase checkpoint. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      AccountingBench.Options o = AccountingBench.Options.of(AccountingBench.command().parse(args));
      AccountingBench.run(
          o,
          new AccountingPass.Listener() {
            @Override
            public void checkpoint(PassState s) {
              if (s.phase == 1 && s.lookups > 0) {
                System.out.println("CHILD: checkpointed, waiting to be killed");
                System.out.flush();
                try {
                  new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            }
          });
      System.exit(0);
    }
  }

  @Test
  void killedMidPassThenResumedGivesTheModelsTallies() throws Exception {
    Path work = tmp.resolve("work");
    List<String> args = new ArrayList<>(List.of(SIZE));
    args.addAll(List.of("--work", work.toString(), "--out", tmp.resolve("out1").toString()));
    List<String> cmd = JavaCommand.running(Child.class, args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    List<String> seen = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null && !line.startsWith("CHILD: checkpointed")) {
        seen.add(line);
      }
      assertThat(line).as("child output: %s", seen).isNotNull();
      p.destroyForcibly(); // SIGKILL: no shutdown hooks, no final checkpoint
      assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(p.exitValue()).isEqualTo(137);

    AccountingBench.Report rep =
        AccountingBench.run(
            AccountingBench.Options.of(
                AccountingBench.command()
                    .parse(
                        concat(
                            SIZE,
                            "--work",
                            work.toString(),
                            "--out",
                            tmp.resolve("out2").toString(),
                            "--resume"))),
            AccountingPass.Listener.NONE);
    assertThat(rep.outcome()).isEqualTo(Outcome.COMPLETED);
    assertThat(rep.tally()).isEqualTo(AccountingPassTest.model(AccountingPassTest.DATA));
    assertThat(rep.measurements()).hasSize(4);
    assertThat(rep.measurements().get(1).resumed()).isTrue();
    assertThat(work).as("a completed run removes its work directory").doesNotExist();
    assertThat(Files.readAllLines(tmp.resolve("out2/accounting.csv")))
        .hasSize(5)
        .element(2)
        .asString()
        .startsWith("1,random,8400,")
        .endsWith(",true");
  }

  private static String[] concat(String[] a, String... b) {
    List<String> l = new ArrayList<>(List.of(a));
    l.addAll(List.of(b));
    return l.toArray(new String[0]);
  }
}
