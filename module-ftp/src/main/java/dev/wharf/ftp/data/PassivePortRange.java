package dev.wharf.ftp.data;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The ports passive data connections may use, parsed from {@code 30000-30009,30020}; an
 * empty range (from {@code 0} or {@code ""}) means "any free port". Immutable and
 * thread-safe.
 */
public final class PassivePortRange {

	private static final PassivePortRange ANY = new PassivePortRange(new int[0]);

	private final int[] ports;

	private PassivePortRange(int[] ports) {
		this.ports = ports;
	}

	/**
	 * Parses a list of ports and port ranges separated by commas.
	 * @param text such as {@code 30000-30009}, {@code 30000-30009, 30020}, {@code 0} or
	 * empty
	 * @return the range
	 * @throws IllegalArgumentException saying what is wrong
	 */
	public static PassivePortRange parse(String text) {
		String trimmed = text.trim();
		if (trimmed.isEmpty() || trimmed.equals("0")) {
			return ANY;
		}
		BitSet ports = new BitSet(65536);
		for (String part : trimmed.split(",", -1)) {
			String item = part.trim();
			int dash = item.indexOf('-');
			int from = port(dash < 0 ? item : item.substring(0, dash));
			int to = (dash < 0) ? from : port(item.substring(dash + 1));
			if (to < from) {
				throw new IllegalArgumentException("the range '" + item + "' ends before it starts");
			}
			ports.set(from, to + 1);
		}
		return new PassivePortRange(ports.stream().toArray());
	}

	private static int port(String text) {
		String value = text.trim();
		if (value.isEmpty() || value.length() > 5 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
			throw new IllegalArgumentException(
					"'" + text.trim() + "' is not a port number; use ports and ranges such as 30000-30009,30020");
		}
		int port = Integer.parseInt(value);
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
		}
		return port;
	}

	/** Whether any free port is taken for each passive connection. */
	public boolean isAny() {
		return this.ports.length == 0;
	}

	/** How many ports the range holds; 0 for "any". */
	public int size() {
		return this.ports.length;
	}

	/**
	 * One port of the range.
	 * @param index from 0 to {@link #size()} - 1
	 * @return the port
	 */
	public int get(int index) {
		return this.ports[index];
	}

	@Override
	public String toString() {
		return isAny() ? "any" : Arrays.toString(this.ports);
	}

}
