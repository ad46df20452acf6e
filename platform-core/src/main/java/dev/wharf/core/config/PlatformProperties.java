package dev.wharf.core.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings shared by every part of Wharf ({@code wharf.*}).
 *
 * @param stateDir folder for Wharf's own state (the generated admin's hash, API tokens);
 * keep it on persistent storage
 */
@ConfigurationProperties("wharf")
public record PlatformProperties(@DefaultValue("./state") String stateDir) {
}
