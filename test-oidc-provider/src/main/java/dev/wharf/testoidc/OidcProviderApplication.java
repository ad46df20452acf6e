package dev.wharf.testoidc;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Spring Authorization Server for the sign-in tests, started as a process of its own. Its
 * issuer, client and port come from Spring Boot's
 * {@code spring.security.oauth2.authorizationserver.*} and {@code server.*} properties on
 * the command line; its users from
 * {@code --test-provider.users=name:password:group,group;…}. Users log in on the server's
 * own form at {@code /login}; each ID token carries the user's {@code preferred_username}
 * and {@code groups}.
 */
@SpringBootApplication
public class OidcProviderApplication {

	/**
	 * Starts the provider.
	 * @param args Spring Boot arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(OidcProviderApplication.class, args);
	}

	@Bean
	UserDetailsService userDetailsService(@Value("${test-provider.users}") String users) {
		InMemoryUserDetailsManager manager = new InMemoryUserDetailsManager();
		for (String user : users.split(";")) {
			String[] fields = user.split(":", 3);
			manager.createUser(User.withUsername(fields[0]).password("{noop}" + fields[1]).roles("USER").build());
		}
		return manager;
	}

	@Bean
	OAuth2TokenCustomizer<JwtEncodingContext> idTokenClaims(@Value("${test-provider.users}") String users) {
		Map<String, List<String>> groupsByUser = new LinkedHashMap<>();
		for (String user : users.split(";")) {
			String[] fields = user.split(":", 3);
			groupsByUser.put(fields[0],
					(fields.length < 3 || fields[2].isEmpty()) ? List.of() : Arrays.asList(fields[2].split(",")));
		}
		return context -> {
			if (OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue())) {
				// The server issues an ID token only to a user who signed in, so the
				// principal is there.
				Authentication principal = Objects.requireNonNull(context.getPrincipal(), "An ID token without a user");
				String name = principal.getName();
				context.getClaims().claim("preferred_username", name);
				context.getClaims().claim("groups", groupsByUser.getOrDefault(name, List.of()));
			}
		};
	}

}
