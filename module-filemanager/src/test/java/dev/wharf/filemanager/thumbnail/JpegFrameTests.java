package dev.wharf.filemanager.thumbnail;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JpegFrame}.
 */
class JpegFrameTests {

	@Test
	void aBaselineJpegIsDecodedInStripsAndAProgressiveOneWhole() throws IOException {
		JpegFrame baseline = JpegFrame.read(jpeg(false));
		assertThat(baseline).isNotNull();
		assertThat(baseline.wholeImage()).isFalse();
		// YCbCr with the chroma halved both ways (ImageIO's default): 2 x 2, 1 x 1, 1 x
		// 1.
		assertThat(baseline.horizontal()).containsExactly(2, 1, 1);
		assertThat(baseline.vertical()).containsExactly(2, 1, 1);
		// A strip of 8 x (2 + 2) rows of three components.
		assertThat(baseline.decoderBytes(1600, 1200)).isEqualTo(1600L * 3 * 8 * 4);
		JpegFrame progressive = JpegFrame.read(jpeg(true));
		assertThat(progressive).isNotNull();
		assertThat(progressive.wholeImage()).isTrue();
		// Plus every coefficient: 200 x 150 blocks of luma, 100 x 75 of each chroma, 128
		// bytes a block.
		assertThat(progressive.decoderBytes(1600, 1200))
			.isEqualTo(1600L * 3 * 8 * 4 + (200 * 150 + 2 * 100 * 75) * 128L);
	}

	@Test
	void whatIsNoJpegHasNoFrame() {
		assertThat(JpegFrame.read(new byte[] { (byte) 0xFF, (byte) 0xD8 })).isNull();
		assertThat(JpegFrame.read(Images.image(10, 10, "png", false))).isNull();
		byte[] cut = jpeg(false);
		assertThat(JpegFrame.read(Arrays.copyOf(cut, 30))).isNull();
	}

	@Test
	void aProgressiveImageCountsItsCoefficientsAgainstTheBudget() throws IOException {
		ImageThumbnailer roomy = new ImageThumbnailer(200, 100_000_000, 16 << 20, true);
		byte[] baselineJpeg = jpeg(false);
		byte[] progressiveJpeg = jpeg(true);
		ImageThumbnailer.Plan baseline = roomy.plan(baselineJpeg);
		ImageThumbnailer.Plan progressive = roomy.plan(progressiveJpeg);
		assertThat(progressive.subsampling()).isEqualTo(baseline.subsampling());
		// libjpeg-turbo also holds a copy of the file.
		long files = baseline.scaled() ? progressiveJpeg.length - baselineJpeg.length : 0;
		assertThat(progressive.bytes() - baseline.bytes()).isEqualTo((200 * 150 + 2 * 100 * 75) * 128L + files);
		// Under p128's budget the baseline image fits, the progressive one (5.8 MB of
		// coefficients) does not.
		ImageThumbnailer small = new ImageThumbnailer(200, 100_000_000, ImageThumbnailerTests.P128_BUDGET, true);
		assertThat(small.make(jpeg(false))).isInstanceOf(Thumbnail.Image.class);
		assertThat(small.make(jpeg(true))).isInstanceOfSatisfying(Thumbnail.Refused.class,
				refused -> assertThat(refused.message())
					.isEqualTo("Image too large to preview: 1600 x 1200 pixels need 7 MB to decode (at most 5 MB)"));
	}

	private static byte[] jpeg(boolean progressive) {
		BufferedImage image = new BufferedImage(1600, 1200, BufferedImage.TYPE_3BYTE_BGR);
		ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (MemoryCacheImageOutputStream output = new MemoryCacheImageOutputStream(bytes)) {
			writer.setOutput(output);
			ImageWriteParam param = writer.getDefaultWriteParam();
			if (progressive) {
				param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
			}
			writer.write(null, new IIOImage(image, null, null), param);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			writer.dispose();
		}
		return bytes.toByteArray();
	}

}
