package cli

import (
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/audit/isolation"
	"github.com/parthack/parthack/internal/worker"
)

// probePayloadTask and probePayloadTrajectory name the trajectory whose payload the control probe must
// receive byte for byte, as `parthack payload` prints it.
const probePayloadTask, probePayloadTrajectory = "PH-D01", "witness"

func newAuditCmd(e *env) *cobra.Command {
	var probes, asJSON bool
	var abi int
	cmd := &cobra.Command{
		Use:   "audit [--probes [--landlock-abi N]] [--json]",
		Short: "Audit the public/private isolation: canaries, payload bytes, worker sandbox",
		Long: "Run the isolation audits of SPEC §4 on the embedded suite: no canary of the sealed suite in the public\n" +
			"payload or IDJ projection of any stored trajectory (a control per task shows the audit sees a leak), and\n" +
			"the same payload bytes on every build.\n\n" +
			"--probes also builds small Go probe programs (it needs `go` on PATH) and runs them as scorers inside the\n" +
			"worker sandbox: a control that must receive, in an empty environment and directory, the bytes\n" +
			"`parthack payload` prints for PH-D01's witness; then attempts that must all be denied — read a sealed file\n" +
			"or the parthack binary, ../ traversal, symlinks and hard links out, writes outside, exec and spawn, TCP,\n" +
			"MPTCP, UDP and UNIX sockets, other socket families, io_uring, signals, capabilities, /proc/*/exe, the\n" +
			"host's network. Each attempt also runs outside the sandbox, where it must succeed; one that cannot is\n" +
			"reported as skipped. Where the worker refuses to run (a layer this machine cannot apply), the probes are\n" +
			"skipped and say why.\n\n" +
			"Exit codes: 0 every audit passed (or was skipped), 1 an audit failed, 2 usage.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("landlock-abi") && !probes {
				return usageErr("--landlock-abi needs --probes")
			}
			checks := []isolation.Check{isolation.Payloads(), isolation.Determinism()}
			if probes {
				pc, err := e.probeChecks(cmd, abi)
				if err != nil {
					return err
				}
				checks = append(checks, pc...)
			}
			counts := map[isolation.Status]int{}
			for _, c := range checks {
				counts[c.Status]++
			}
			if asJSON {
				if err := writeJSON(e.stdout, auditJSON{Checks: checks, Passed: counts[isolation.Pass], Failed: counts[isolation.Fail], Skipped: counts[isolation.Skip]}); err != nil {
					return err
				}
			} else {
				for _, c := range checks {
					fmt.Fprintf(e.stdout, "%s  %s\n      %s\n", c.Status, c.Name, c.Detail)
				}
				fmt.Fprintf(e.stdout, "\naudit: %d passed, %d failed, %d skipped\n", counts[isolation.Pass], counts[isolation.Fail], counts[isolation.Skip])
			}
			if counts[isolation.Fail] > 0 {
				return &exitError{code: ExitRejected, err: fmt.Errorf("%d of %d audits failed", counts[isolation.Fail], len(checks))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&probes, "probes", false, "also run the capability probes inside the worker sandbox (needs go on PATH)")
	intFlag(cmd.Flags(), &abi, "landlock-abi", 0, landlockRange, fmt.Sprintf("Landlock ABI the worker enforces, strictly (default: the kernel's newest, up to %d; kernels older than %d are refused)", worker.NewestLandlockABI, worker.MinLandlockABI))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	return cmd
}

// probeChecks runs the worker probes, or says why it cannot.
func (e *env) probeChecks(cmd *cobra.Command, abi int) ([]isolation.Check, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return []isolation.Check{{Name: "worker capability probes", Status: isolation.Skip,
			Detail: "go is not on PATH: the probes are Go programs built here; install Go or put it on PATH to run them"}}, nil
	}
	_, b, err := e.publicPayload(probePayloadTask, probePayloadTrajectory)
	if err != nil {
		return nil, err
	}
	return isolation.Probes(cmd.Context(), isolation.ProbeConfig{GoBin: goBin, LandlockABI: abi, Payload: b}), nil
}

type auditJSON struct {
	Checks  []isolation.Check `json:"checks"`
	Passed  int               `json:"passed"`
	Failed  int               `json:"failed"`
	Skipped int               `json:"skipped"`
}
