-- wrk script: PUT a 128-byte entry per request, to 10,000 rotating Gradle-style keys (then replacing them).
local counter = 0
local body = string.rep("x", 128)
local headers = { ["Content-Type"] = "application/vnd.gradle.build-cache-artifact.v2" }

request = function()
	counter = counter + 1
	return wrk.format("PUT", string.format("/cache/%032x", counter % 10000), headers, body)
end
