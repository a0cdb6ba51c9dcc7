package undecodable

import (
	"os"
	"testing"

	// Imported for its init, which warns about GODEBUG cpu options it
	// does not know: the runner must drop that warning from the output.
	_ "golang.org/x/sys/cpu"
)

// TestCTGrindUndecodable runs evexInstruction when ci/cmd/ctgrind's test
// asks for it (under valgrind). It logs its GODEBUG, which the runner's
// test checks, and a backend line before and after the instruction, so
// that the stopped run leaves a backend it named uncovered.
func TestCTGrindUndecodable(t *testing.T) {
	if os.Getenv("CTGRIND_UNDECODABLE") != "1" {
		t.Skip("run by ci/cmd/ctgrind's TestUndecodableOneLine under valgrind")
	}
	t.Logf("GODEBUG=%s", os.Getenv("GODEBUG"))
	t.Log("ctgrind: backend generic: run natively under memcheck")
	Run()
	t.Log("ctgrind: backend evex: run natively under memcheck")
}
