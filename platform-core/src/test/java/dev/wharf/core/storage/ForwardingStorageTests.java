package dev.wharf.core.storage;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.wharf.core.security.AuthorizedStorage;
import dev.wharf.core.storage.metrics.MeteredStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ForwardingStorage}: it overrides every method of {@link Storage},
 * default methods included, so a method added to the SPI cannot silently fall back to its
 * default in a decorator; and each one hands the call to the delegate with the same
 * arguments. {@link AuthorizedStorage} checks rights, so it must not forward a new method
 * unchecked: it overrides every method itself.
 */
class ForwardingStorageTests {

	static Stream<Method> storageMethods() {
		return Arrays.stream(Storage.class.getMethods())
			.filter(method -> !Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() == Storage.class);
	}

	@ParameterizedTest
	@MethodSource("storageMethods")
	void everyStorageMethodIsOverridden(Method method) throws NoSuchMethodException {
		assertThat(ForwardingStorage.class.getDeclaredMethod(method.getName(), method.getParameterTypes()))
			.as(method.toString())
			.isNotNull();
	}

	@ParameterizedTest
	@MethodSource("storageMethods")
	void authorizedStorageChecksEveryStorageMethodItself(Method method) throws NoSuchMethodException {
		assertThat(AuthorizedStorage.class.getDeclaredMethod(method.getName(), method.getParameterTypes()))
			.as(method.toString())
			.isNotNull();
	}

	@ParameterizedTest
	@MethodSource("storageMethods")
	void everyCallGoesToTheDelegateWithItsArguments(Method method) throws Exception {
		List<String> calls = new ArrayList<>();
		Object marker = result(method.getReturnType());
		Storage delegate = (Storage) Proxy.newProxyInstance(Storage.class.getClassLoader(),
				new Class<?>[] { Storage.class }, (proxy, called, arguments) -> {
					if (called.getDeclaringClass() == Object.class) {
						return called.invoke(this, arguments);
					}
					calls.add(called.getName() + Arrays.toString((arguments != null) ? arguments : new Object[0]));
					return result(called.getReturnType());
				});
		Storage forwarding = new ForwardingStorage(delegate) {
		};
		Object[] arguments = Arrays.stream(method.getParameterTypes()).map(ForwardingStorageTests::argument).toArray();
		Object returned;
		try {
			returned = method.invoke(forwarding, arguments);
		}
		catch (InvocationTargetException ex) {
			throw new AssertionError(ex.getCause());
		}
		assertThat(calls).containsExactly(method.getName() + Arrays.toString(arguments));
		if (marker != null) {
			assertThat(returned).isEqualTo(marker);
		}
	}

	@Test
	void theDecoratorsOfCoreExtendTheBase() {
		assertThat(ForwardingStorage.class).isAssignableFrom(MeteredStorage.class)
			.isAssignableFrom(AuthorizedStorage.class);
	}

	private static final Mono<Object> MONO = Mono.empty();

	private static final Flux<Object> FLUX = Flux.empty();

	private static Object result(Class<?> type) {
		if (type == Mono.class) {
			return MONO;
		}
		if (type == Flux.class) {
			return FLUX;
		}
		if (type == Set.class) {
			return Set.of(Capability.APPEND);
		}
		if (type == boolean.class) {
			return Boolean.TRUE;
		}
		return null;
	}

	private static Object argument(Class<?> type) {
		if (type == StoragePath.class) {
			return StoragePath.parse("/a");
		}
		if (type == ByteRange.class) {
			return ByteRange.from(3);
		}
		if (type == Flux.class) {
			return Flux.<DataBuffer>just(DefaultDataBufferFactory.sharedInstance.wrap(new byte[1]));
		}
		if (type == WriteOptions.class) {
			return WriteOptions.replace();
		}
		if (type == boolean.class) {
			return Boolean.TRUE;
		}
		if (type == long.class) {
			return 7L;
		}
		if (type == Instant.class) {
			return Instant.EPOCH;
		}
		if (type == Path.class) {
			return Path.of("/x");
		}
		if (type == List.class) {
			return List.of(StoragePath.parse("/b"), StoragePath.parse("/c"));
		}
		throw new IllegalArgumentException("No test argument for " + type);
	}

}
