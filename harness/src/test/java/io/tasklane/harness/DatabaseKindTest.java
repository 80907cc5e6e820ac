package io.tasklane.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class DatabaseKindTest {

  @Command(name = "tool")
  static final class Tool {
    @Mixin Cli.Db db;
  }

  @Test
  void dbFlagDefaultsToMariaDbAndAcceptsPostgres() {
    Tool byDefault = new Tool();
    new CommandLine(byDefault).parseArgs();
    assertThat(byDefault.db.kind()).isEqualTo(DatabaseKind.MARIADB);
    Tool pg = new Tool();
    new CommandLine(pg).parseArgs("--db", "postgres");
    assertThat(pg.db.kind()).isEqualTo(DatabaseKind.POSTGRESQL);
    assertThat(DatabaseKind.parse("PostgreSQL")).isEqualTo(DatabaseKind.POSTGRESQL);
  }

  @Test
  void anUnknownDatabaseIsRefusedNamingTheValueAndTheChoices() {
    Tool tool = new Tool();
    new CommandLine(tool).parseArgs("--db", "oracle");
    assertThatThrownBy(tool.db::kind)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--db oracle is not supported: use one of mariadb, postgres");
  }

  @Test
  void theRelayConnectorFollowsTheJdbcUrl() {
    assertThat(DatabaseKind.relayConnector("jdbc:postgresql://127.0.0.1:5432/shop"))
        .isEqualTo("postgresql");
    assertThat(DatabaseKind.relayConnector("jdbc:mariadb://127.0.0.1:3306/shop")).isEqualTo("auto");
    assertThat(DatabaseKind.relayConnector("jdbc:mysql://127.0.0.1:3306/shop")).isEqualTo("auto");
    assertThat(new Database("jdbc:postgresql://h/db", "u", "p").kind())
        .isEqualTo(DatabaseKind.POSTGRESQL);
    assertThat(new Database("jdbc:mariadb://h/db", "u", "p").dropReplicationSlots(null)).isZero();
  }
}
