package cli

import "github.com/spf13/cobra"

func newDemoCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Play scripted walkthroughs of each failure mode, for a talk",
		Long: "Play four walkthroughs on the workbench's screens: a historical-witness attack (the score climbs while\n" +
			"certified progress stays), a rollback that historical credit misses, an attribution-mismatch rejection,\n" +
			"and the first again on a frontier model's real run of a benchmark, scored by its own evaluators. Space, → or PgDn\n" +
			"advances, b, ← or PgUp goes back, q quits; captions say what the audience sees.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runWorkbench(e, true) },
	}
}
