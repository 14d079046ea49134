package conformance

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
)

// reference is a running DRF reference server.
type reference struct {
	base string // http://127.0.0.1:PORT
	db   string // its SQLite database, as ./start prints it
	cmd  *exec.Cmd
	done chan struct{}

	mu     sync.Mutex
	output strings.Builder // what it wrote on stdout and stderr
}

// oracle is one DRF reference of the contract: the level at which the
// repository's conformance/reference/start serves it, the environment
// variable that names another reference directory instead, and the level
// at which the sample answers as it does.
type oracle struct {
	drf   string // conformance/reference/start --drf
	env   string // the variable naming another directory, whose start [PORT] serves this oracle
	level framework.Compatibility
}

var (
	// drf314 is Debian 12's DRF 3.14 on Django 3.2.
	drf314 = oracle{"3.14", "DRF_REFERENCE_DIR", framework.DRF314}
	// drf318 is DRF 3.18 on Django 5.2, laid out in
	// conformance/reference/drf318 by scripts/install-references.
	drf318 = oracle{"3.18", "DRF_REFERENCE_LATEST_DIR", framework.DRF318}
)

// dir is $env, or the repository's conformance/reference (the tests run
// in conformance/).
func (o oracle) dir(t *testing.T) string {
	if d := os.Getenv(o.env); d != "" {
		return d
	}
	dir, err := filepath.Abs("reference")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// args are the arguments of start before the port: the level for the
// repository's reference, none for a directory named by $env, whose start
// serves one level.
func (o oracle) args() []string {
	if os.Getenv(o.env) != "" {
		return nil
	}
	return []string{"--drf", o.drf}
}

// missing says why the oracle cannot run here, "" if it can: the
// repository's reference says so itself (start --check); another
// directory needs its start and Debian's gunicorn.
func (o oracle) missing(dir string) string {
	start := filepath.Join(dir, "start")
	if _, err := os.Stat(start); err != nil {
		return fmt.Sprintf("no reference at %s (set %s)", dir, o.env)
	}
	if os.Getenv(o.env) != "" {
		if _, err := os.Stat("/usr/bin/gunicorn"); err != nil {
			return "no /usr/bin/gunicorn (scripts/install-references)"
		}
		return ""
	}
	if out, err := exec.Command(start, append(o.args(), "--check")...).CombinedOutput(); err != nil {
		return fmt.Sprintf("%s --check: %v: %s", start, err, strings.TrimSpace(string(out)))
	}
	return ""
}

// forEachOracle runs test once per oracle, as the subtests drf318 and
// drf314: each compares the sample at the oracle's level with it.
func forEachOracle(t *testing.T, test func(t *testing.T, o oracle)) {
	for _, o := range []oracle{drf318, drf314} {
		t.Run("drf"+strings.ReplaceAll(o.drf, ".", ""), func(t *testing.T) { test(t, o) })
	}
}

// startReference serves the DRF 3.14 reference (startOracle).
func startReference(t *testing.T) *reference { return startOracle(t, drf314) }

// startOracle serves the oracle on a free port with the demo data and
// stops it when the test ends. Without Python, the level's DRF and Django
// or gunicorn (scripts/install-references lays them out) the test is
// skipped, unless CI_REQUIRE_REFERENCE=1, where it fails.
func startOracle(t *testing.T, o oracle) *reference {
	dir := o.dir(t)
	if why := o.missing(dir); why != "" {
		if os.Getenv("CI_REQUIRE_REFERENCE") == "1" {
			t.Fatalf("the DRF reference cannot run and CI_REQUIRE_REFERENCE=1: %s", why)
		}
		t.Skipf("skipping conformance with the DRF reference: %s", why)
	}
	port := freePort(t)
	ref := &reference{base: "http://127.0.0.1:" + strconv.Itoa(port), done: make(chan struct{})}
	ref.cmd = exec.Command(filepath.Join(dir, "start"), append(o.args(), strconv.Itoa(port))...)
	ref.cmd.Dir = dir
	ref.cmd.Env = append(os.Environ(), "WORKERS=2")
	ref.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := ref.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	ref.cmd.Stderr = ref.cmd.Stdout
	if err := ref.cmd.Start(); err != nil {
		t.Fatalf("start the reference: %v", err)
	}
	go ref.collect(stdout)
	t.Cleanup(ref.stop)
	if err := ref.wait(60 * time.Second); err != nil {
		t.Fatalf("the reference did not come up: %v\n%s", err, ref.log())
	}
	ref.mu.Lock()
	t.Logf("DRF reference %s at %s (database %s)", o.level, ref.base, ref.db)
	ref.mu.Unlock()
	return ref
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (ref *reference) collect(out interface{ Read([]byte) (int, error) }) {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		ref.mu.Lock()
		ref.output.WriteString(line + "\n")
		if _, db, ok := strings.Cut(line, "(database "); ok {
			ref.db = strings.TrimSuffix(db, ")")
		}
		ref.mu.Unlock()
	}
	_ = ref.cmd.Wait()
	close(ref.done)
}

func (ref *reference) log() string {
	ref.mu.Lock()
	defer ref.mu.Unlock()
	return ref.output.String()
}

// wait polls /whoami/ until the reference answers, it exits, or d passes.
func (ref *reference) wait(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ref.base+"/whoami/", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ref.done:
			return errors.New("it exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM to the reference's process group and waits for it.
func (ref *reference) stop() {
	pgid := ref.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-ref.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-ref.done
	}
}
