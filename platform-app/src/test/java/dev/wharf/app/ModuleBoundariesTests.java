package dev.wharf.app;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The dependency rules of docs/architecture.md: every module depends only on
 * platform-core, platform-core on no module nor the application, and only FTP's engine
 * package on Apache FtpServer and MINA.
 */
class ModuleBoundariesTests {

	static final List<String> MODULES = List.of("filemanager", "ftp", "buildcache", "staticfiles");

	static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.wharf");

	@Test
	void coreDependsOnNoModule() {
		noClasses().that()
			.resideInAPackage("dev.wharf.core..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.wharf.filemanager..", "dev.wharf.ftp..", "dev.wharf.buildcache..",
					"dev.wharf.staticfiles..", "dev.wharf.app..")
			.check(CLASSES);
	}

	@ParameterizedTest
	@ValueSource(strings = { "filemanager", "ftp", "buildcache", "staticfiles" })
	void aModuleDependsOnNoOtherModule(String module) {
		String[] others = MODULES.stream()
			.filter(other -> !other.equals(module))
			.map(other -> "dev.wharf." + other + "..")
			.toArray(String[]::new);
		noClasses().that()
			.resideInAPackage("dev.wharf." + module + "..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(others)
			.orShould()
			.dependOnClassesThat()
			.resideInAPackage("dev.wharf.app..")
			.check(CLASSES);
	}

	@Test
	void onlyTheFtpEngineTouchesApacheFtpServerOrMina() {
		noClasses().that()
			.resideOutsideOfPackage("dev.wharf.ftp.engine..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.apache.ftpserver..", "org.apache.mina..")
			.check(CLASSES);
	}

}
