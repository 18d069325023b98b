package dev.idxkit.loader.input;

/** The {@link RowSource} contract on lineitem at SF 0.002 (12,000 rows) in parts of ~1,000. */
class TpchSourceContractTest extends RowSourceContract {
  @Override
  RowSource open(ResumePoint from) {
    return TpchSource.open(
        TpchSchema.LINEITEM, TpchOptions.scale(0.002).withRowsPerChunk(1000), null, from);
  }

  @Override
  int minChunks() {
    return 10;
  }
}
