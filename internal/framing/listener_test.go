package framing_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-drf/drf/internal/framing"
)

// TestListenerSendsFiles: runserver's connections copy from a reader
// through the TCP connection's own io.ReaderFrom (sendfile), which
// net/http uses for a file's body; a file served through the listener
// arrives whole.
func TestListenerSendsFiles(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	framed := framing.Listener(ln)
	defer framed.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := framed.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := conn.(io.ReaderFrom); !ok {
		t.Errorf("%T is not an io.ReaderFrom", conn)
	}
	conn.Close()
	client.Close()

	dir := t.TempDir()
	want := bytes.Repeat([]byte("0123456789abcdef"), 20000)
	if err := os.WriteFile(filepath.Join(dir, "f.bin"), want, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir))}
	go func() { _ = srv.Serve(framed) }()
	defer srv.Close()
	resp, err := http.Get("http://" + ln.Addr().String() + "/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
		t.Errorf("%d, %d of %d bytes, %v", resp.StatusCode, len(got), len(want), err)
	}
}
