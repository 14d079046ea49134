package testservers

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// S3 is a real S3 server started for one test: versitygw serving a
// temporary directory (its posix backend), in single-account mode.
type S3 struct {
	// Endpoint is its URL, "http://127.0.0.1:PORT".
	Endpoint string
	// AccessKey and SecretKey are its root account's.
	AccessKey, SecretKey string
	// Region is the region it signs for.
	Region string
	dir    string
	p      *process
}

// versitygwBin finds versitygw on $PATH or in the repository's bin/,
// where scripts/install-test-deps installs it.
func versitygwBin() (string, error) {
	if bin, err := exec.LookPath("versitygw"); err == nil {
		return bin, nil
	}
	_, here, _, _ := runtime.Caller(0)
	bin := filepath.Join(filepath.Dir(here), "..", "..", "bin", "versitygw")
	if _, err := os.Stat(bin); err != nil {
		return "", err
	}
	return bin, nil
}

// StartS3 starts a versitygw of its own for t, stopped and its directory
// removed when t ends. Without versitygw the test is skipped, or fails
// when CI_REQUIRE_S3=1.
func StartS3(t testing.TB) *S3 {
	t.Helper()
	bin, err := versitygwBin()
	if err != nil {
		require(t, "CI_REQUIRE_S3", "versitygw is not installed")
	}
	return onFreePort(t, "versitygw", func(port int) (*S3, error) { return startS3(bin, port) })
}

func startS3(bin string, port int) (*S3, error) {
	dir, err := os.MkdirTemp("", "drf-s3-")
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s := &S3{AccessKey: "drftest", SecretKey: "drftest-secret-key", Region: "us-east-1", dir: root}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	logPath := filepath.Join(dir, "versitygw.log")
	log, err := os.Create(logPath)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	defer log.Close()
	cmd := exec.Command(bin, "--access", s.AccessKey, "--secret", s.SecretKey, "--region", s.Region,
		"--port", addr, "--quiet", "posix", root)
	cmd.Stdout, cmd.Stderr = log, log
	p, err := start(cmd, dir, syscall.SIGTERM)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s.Endpoint, s.p = "http://"+addr, p
	client := &http.Client{Timeout: time.Second}
	err = waitFor(p, 10*time.Second, func() error {
		resp, err := client.Get(s.Endpoint + "/")
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
	if err != nil {
		msg := tail(logPath, 5)
		p.kill()
		return nil, fmt.Errorf("%v\n%s", err, msg)
	}
	return s, nil
}

// Bucket creates an empty bucket of that name and returns the directory
// that holds its objects, each at its key's path.
func (s *S3) Bucket(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(s.dir, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatalf("testservers: bucket %s: %v", name, err)
	}
	return dir
}

// Stop stops the server. Stopping twice is harmless.
func (s *S3) Stop() {
	if unregister(s.p) {
		s.p.kill()
	}
}
