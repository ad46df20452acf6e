package demo;

/** Something to compile. */
public final class Hello {

	private Hello() {
	}

	/** A greeting. */
	public static String greeting() {
		return "hello from the build cache";
	}

}
