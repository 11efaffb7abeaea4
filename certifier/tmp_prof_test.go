package certifier

import (
	"os"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

func BenchmarkTmpFile(b *testing.B) {
	env := fixture.ExampleEnv(b)
	for i := 0; i < b.N; i++ {
		src, _ := os.ReadFile("/tmp/1m.json")
		tr, err := model.DecodeTrajectory("1m.json", src)
		if err != nil {
			b.Fatal(err)
		}
		_, _, err = DoubleCertify(env, tr)
		if err != nil {
			b.Fatal(err)
		}
	}
}
