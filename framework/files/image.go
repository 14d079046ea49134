package files

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	_ "image/gif"  // GIF, as Pillow opens it
	_ "image/jpeg" // JPEG
	_ "image/png"  // PNG
	"io"

	_ "golang.org/x/image/webp" // WebP
)

// maxImagePixels is Pillow's Image.MAX_IMAGE_PIXELS: an image of more
// pixels is a possible decompression bomb. Pillow warns of one and
// refuses one of more than twice as many (DecompressionBombError), which
// Django's ImageField then refuses as no valid image.
const maxImagePixels = 89478485

var errInvalidImage = errors.New("files: not an image or a corrupted image")

// VerifyImage checks content as Django's ImageField checks an upload,
// with Pillow's Image.open and verify(): a JPEG, PNG, GIF or WebP image
// whose header reads, of at most twice Pillow's MAX_IMAGE_PIXELS
// (89478485) pixels, and, for a PNG, every chunk up to IEND with its
// checksum. It reads headers and checksums only, never decoding the
// pixels: a decompression bomb is refused by its header's size. Any other
// content is an error.
func VerifyImage(content io.Reader) error {
	br := bufio.NewReader(content)
	head, _ := br.Peek(8)
	cfg, _, err := image.DecodeConfig(br)
	if err != nil {
		return errInvalidImage
	}
	if int64(cfg.Width)*int64(cfg.Height) > 2*maxImagePixels {
		return errInvalidImage
	}
	if bytes.Equal(head, pngSignature) {
		// image.DecodeConfig read the signature and the IHDR chunk.
		if err := verifyPNGChunks(br); err != nil {
			return errInvalidImage
		}
	}
	return nil
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// verifyPNGChunks is Pillow's PngImageFile.verify: each chunk's CRC, up
// to IEND; a file that ends before it is truncated.
func verifyPNGChunks(r io.Reader) error {
	var hdr [8]byte
	crc := crc32.NewIEEE()
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return err
		}
		if string(hdr[4:]) == "IEND" {
			return nil
		}
		crc.Reset()
		crc.Write(hdr[4:])
		if _, err := io.CopyN(crc, r, int64(binary.BigEndian.Uint32(hdr[:4]))); err != nil {
			return err
		}
		var sum [4]byte
		if _, err := io.ReadFull(r, sum[:]); err != nil {
			return err
		}
		if binary.BigEndian.Uint32(sum[:]) != crc.Sum32() {
			return errInvalidImage
		}
	}
}

// ImageDimensions is Django's get_image_dimensions: the width and height
// the image's header gives, read as VerifyImage reads it, without
// decoding the pixels; content that is no image is an error.
func ImageDimensions(content io.Reader) (width, height int, err error) {
	cfg, _, err := image.DecodeConfig(bufio.NewReader(content))
	if err != nil {
		return 0, 0, errInvalidImage
	}
	return cfg.Width, cfg.Height, nil
}
