/**
 * Tests of the Helm chart ({@code helm/wharf}): rendered with helm, checked against its
 * schema and Kubernetes's.
 */
@NullMarked
package dev.wharf.app.helm;

import org.jspecify.annotations.NullMarked;
