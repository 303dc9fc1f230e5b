"""Games played, recorded and analysed: bots, simulation, scenarios, records, the terminal, OpenSpiel.
It may import compile/ and runtime/."""
