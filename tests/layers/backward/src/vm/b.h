// A vm header.
#pragma once
