/**
 * An OpenID Connect provider for tests: Spring Authorization Server with users, groups
 * and one client from the command line.
 */
@NullMarked
package dev.wharf.testoidc;

import org.jspecify.annotations.NullMarked;
