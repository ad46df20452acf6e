package dev.wharf.staticfiles.site;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Binds {@code wharf.static} properties written as in {@code application.properties}, so
 * tests configure sites exactly as users do.
 */
public final class TestProperties {

	private TestProperties() {
	}

	/**
	 * Binds properties.
	 * @param properties "name=value" pairs, names relative to {@code wharf.static}
	 * @return the bound properties, with defaults for everything not given
	 */
	public static StaticFilesProperties bind(String... properties) {
		Map<String, String> map = new LinkedHashMap<>();
		for (String property : properties) {
			int equals = property.indexOf('=');
			map.put("wharf.static." + property.substring(0, equals), property.substring(equals + 1));
		}
		return new Binder(new MapConfigurationPropertySource(map)).bindOrCreate("wharf.static",
				StaticFilesProperties.class);
	}

}
