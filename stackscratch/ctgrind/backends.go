package ctgrind

import (
	"os"
	"strings"
	"testing"
)

// BackendsEnv names the variable that restricts the backends a CTGrind test
// runs to a comma-separated list; unset, it runs every available one.
// ci/cmd/ctgrind sets it for its run on the model to the backends its native
// run could not cover.
const BackendsEnv = "VG_CTGRIND_BACKENDS"

// BackendLine starts the line [RunsBackend] logs for each backend, which
// ci/cmd/ctgrind collects to say which backends each valgrind run covered.
const BackendLine = "ctgrind: backend "

// RunsBackend reports whether a CTGrind test runs the backend called name
// (available: whether its features are enabled in this process; requires:
// their names) and logs the decision, so that no report claims a backend
// it did not run:
//
//	ctgrind: backend adx: run natively under memcheck
//	ctgrind: backend ifma: run on the model under memcheck
//	ctgrind: backend ifma: not run: requires avx512f,... which valgrind's CPU does not decode
//
// Natively, a backend whose features are not enabled is one valgrind's CPU
// does not decode (valgrind 3.19 has no AVX-512, VAES or VPCLMULQDQ;
// cpufeat adds the ADX it decodes but hides): ci/cmd/ctgrind runs it again
// on the model (build tag vgsim), where every backend's features are
// enabled and the model takes its secrets from memcheck
// (asmgen/x86sim's UnderValgrind).
func RunsBackend(tb testing.TB, name string, available bool, requires string) bool {
	tb.Helper()
	if only, ok := os.LookupEnv(BackendsEnv); ok && !contains(strings.Split(only, ","), name) {
		tb.Logf("%s%s: not run: %s=%s leaves it out (ci/cmd/ctgrind: another run covers it)", BackendLine, name, BackendsEnv, only)
		return false
	}
	switch {
	case !available && OnModel:
		tb.Logf("%s%s: not run: requires %s, not enabled here (VG_CPU_FEATURES?)", BackendLine, name, requires)
		return false
	case !available:
		tb.Logf("%s%s: not run: requires %s, which valgrind's CPU does not decode (ci/cmd/ctgrind runs it on the model)", BackendLine, name, requires)
		return false
	case OnModel:
		tb.Logf("%s%s: run on the model under memcheck", BackendLine, name)
	default:
		tb.Logf("%s%s: run natively under memcheck", BackendLine, name)
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}
